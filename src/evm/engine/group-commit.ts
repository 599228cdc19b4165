import type { Database } from '../../platform/db/database.ts';
import { KeyedGroups } from '../../platform/scheduling/keyed-groups.ts';

/**
 * Groups concurrent work for one key (a sender on a network) into one database transaction: while a
 * group commits, the next requests queue up and go together in the following one. Nonce allocation
 * holds a row lock until commit, so one commit per group instead of one per send is what lets a
 * single sender reach hundreds of sends per second.
 */
export class GroupCommit<Item, Result> {
  readonly #groups: KeyedGroups<Item, Result>;

  constructor(
    db: Database,
    commit: (tx: Parameters<Parameters<Database['transaction']>[0]>[0], items: Item[]) => Promise<Result[]>,
    maxGroup = 200,
  ) {
    this.#groups = new KeyedGroups((_key, items) => db.transaction((tx) => commit(tx, items)), maxGroup);
  }

  run(key: string, item: Item): Promise<Result> {
    return this.#groups.run(key, item);
  }
}
