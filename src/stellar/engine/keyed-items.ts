import type { Queryable } from '../../platform/db/database.ts';
import { itemsWithHeldKeys, keyInUse } from '../../platform/idempotency/idempotency.ts';
import type { LaneResult, NewItem } from './lane-entries.ts';
import { heldIdempotencyKeys } from './stellar-transactions.repository.ts';

/**
 * The items of a lane group answered 409 in-use instead of signed: each keyed item whose key is held (in
 * the store, or by an earlier item of the group), before any sequence number is allocated. The unique
 * index stays the arbiter (a request of another process).
 */
export async function refusedForHeldKeys(
  db: Queryable,
  items: readonly NewItem[],
): Promise<Map<NewItem, LaneResult>> {
  const applicationId = (items[0] as NewItem).account.application_id;
  const held = await itemsWithHeldKeys(
    items,
    (item) => item.record.idempotency?.key,
    (keys) => heldIdempotencyKeys(db, applicationId, keys),
  );
  return new Map([...held].map((item) => [item, { ok: false, error: keyInUse() }]));
}
