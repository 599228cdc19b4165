import type { Queryable } from '../../platform/db/database.ts';
import type { LaneResult, NewItem } from './lane-entries.ts';
import { idempotencyKeyInUse } from './lane-errors.ts';
import { heldIdempotencyKeys } from './stellar-transactions.repository.ts';

/**
 * The items of a group that may not be signed: each keyed item whose key another holds (an earlier item
 * of the group, or a record in the store), answered 409 in-use. One item each key goes on. The unique
 * index is the arbiter (a request of another process); this look spares the rest of the group an abort.
 */
export async function itemsWithHeldKeys(
  db: Queryable,
  items: readonly NewItem[],
): Promise<Map<NewItem, LaneResult>> {
  const refused = new Map<NewItem, LaneResult>();
  const keys = items.flatMap((item) => (item.record.idempotency ? [item.record.idempotency.key] : []));
  if (keys.length === 0) return refused;
  const held = await heldIdempotencyKeys(db, (items[0] as NewItem).account.application_id, keys);
  for (const item of items) {
    const key = item.record.idempotency?.key;
    if (key === undefined) continue;
    if (held.has(key)) refused.set(item, { ok: false, error: idempotencyKeyInUse() });
    held.add(key);
  }
  return refused;
}
