import { isUniqueViolation, type Queryable } from '../../platform/db/database.ts';
import { itemsWithHeldKeys, keyInUse } from '../../platform/idempotency/idempotency.ts';
import type { LaneResult, NewItem } from './lane-entries.ts';
import { heldIdempotencyKeys } from './stellar-transactions.repository.ts';

/** The unique index that holds each application's keys (migration 0010). */
export const IDEMPOTENCY_KEY_INDEX = 'stellar_transactions_idempotency_key';

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

/**
 * A key taken between a group's look and its insert by a request outside the lane (another process on
 * the store, another network of the application) meets the unique index: the group's transaction rolls
 * back, sequence numbers and all. Its items then go again one by one, so that only the keyed one is
 * answered 409 in-use (asked again, it answers the holder), not its neighbours.
 */
export async function processedAloneOnTakenKey(
  items: NewItem[],
  process: (group: NewItem[]) => Promise<LaneResult[]>,
): Promise<LaneResult[]> {
  try {
    return await process(items);
  } catch (error) {
    if (!isUniqueViolation(error, IDEMPOTENCY_KEY_INDEX)) throw error;
    if (items.length === 1) return [{ ok: false, error: keyInUse() }];
    const results: LaneResult[] = [];
    for (const item of items) results.push(...(await processedAloneOnTakenKey([item], process)));
    return results;
  }
}
