import type { Database } from '../../platform/db/database.ts';

type Pending<Item, Result> = { item: Item; resolve(result: Result): void; reject(error: unknown): void };

/**
 * Groups concurrent work for one key (a sender on a network) into one database transaction: while a
 * group commits, the next requests queue up and go together in the following one. Nonce allocation
 * holds a row lock until commit, so one commit per group instead of one per send is what lets a
 * single sender reach hundreds of sends per second.
 */
export class GroupCommit<Item, Result> {
  readonly #queues = new Map<string, Array<Pending<Item, Result>>>();
  readonly #running = new Set<string>();

  constructor(
    private readonly db: Database,
    private readonly commit: (
      tx: Parameters<Parameters<Database['transaction']>[0]>[0],
      items: Item[],
    ) => Promise<Result[]>,
    private readonly maxGroup = 200,
  ) {}

  run(key: string, item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      const queue = this.#queues.get(key) ?? [];
      queue.push({ item, resolve, reject });
      this.#queues.set(key, queue);
      if (!this.#running.has(key)) void this.#drain(key);
    });
  }

  async #drain(key: string): Promise<void> {
    this.#running.add(key);
    try {
      for (;;) {
        const queue = this.#queues.get(key);
        if (!queue || queue.length === 0) break;
        const group = queue.splice(0, this.maxGroup);
        try {
          const results = await this.db.transaction((tx) =>
            this.commit(
              tx,
              group.map((pending) => pending.item),
            ),
          );
          for (const [index, pending] of group.entries()) pending.resolve(results[index] as Result);
        } catch (error) {
          for (const pending of group) pending.reject(error);
        }
      }
    } finally {
      this.#running.delete(key);
      this.#queues.delete(key);
    }
  }
}
