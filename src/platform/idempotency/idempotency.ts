import { ChaingateError } from '../errors/chaingate-error.ts';

/**
 * A keyed request (`Idempotency-Key`): its key, and the fingerprint of the request that a repetition must
 * match. The rules below are the same on every chain; each domain stores keys on its own records, where a
 * unique index per application is the arbiter.
 */
export type Idempotency = { key: string; fingerprint: string };

/**
 * The request that stored a key must be this one: answering its transaction to a different request would
 * tell the client that a transaction it never asked for is its own. Else a 409 naming that transaction.
 */
export function assertSameRequest(
  idempotency: Idempotency,
  stored: { fingerprint: string; txHash: string },
): void {
  if (stored.fingerprint === idempotency.fingerprint) return;
  throw new ChaingateError(
    'CG_ERR_IDEMPOTENCY_KEY_REUSED',
    `Idempotency-Key was used for a different request (transaction ${stored.txHash}); nothing was sent`,
    { context: { field: 'Idempotency-Key', txHash: stored.txHash } },
  );
}

/** Another request with the key is being sent, and this one sent nothing: asked again, it answers that one. */
export function keyInUse(): ChaingateError {
  return new ChaingateError(
    'CG_ERR_IDEMPOTENCY_KEY_IN_USE',
    'Idempotency-Key: a request with this key is being sent; nothing was sent by this one. Ask again: the repetition answers its transaction',
    { context: { field: 'Idempotency-Key' } },
  );
}

/**
 * The items of a batch signed in one database transaction that may not be signed: each whose key is held
 * already (`held` looks the batch's keys up in the store) or by an earlier item of the batch. One item
 * each key goes on. Asked before nonces or sequence numbers are allocated, so a held key neither aborts
 * the batch's transaction nor leaves a gap.
 */
export async function itemsWithHeldKeys<Item>(
  items: readonly Item[],
  keyOf: (item: Item) => string | undefined,
  held: (keys: string[]) => Promise<Set<string>>,
): Promise<Set<Item>> {
  const refused = new Set<Item>();
  const keys = items.flatMap((item) => keyOf(item) ?? []);
  if (keys.length === 0) return refused;
  const taken = await held(keys);
  for (const item of items) {
    const key = keyOf(item);
    if (key === undefined) continue;
    if (taken.has(key)) refused.add(item);
    taken.add(key);
  }
  return refused;
}
