import { type Address, getAddress, type Hex } from 'viem';
import type { Queryable } from '../../platform/db/database.ts';
import { assertSameRequest, type Idempotency } from '../../platform/idempotency/idempotency.ts';
import { findByIdempotencyKey } from './transactions.repository.ts';

/** The index that holds each application's idempotency keys unique (migration 0009). */
export const IDEMPOTENCY_KEY_INDEX = 'evm_transactions_idempotency_key';

export type ReplayedTransaction = {
  id: string;
  txHash: Hex;
  nonce: bigint;
  contractAddress: Address | undefined;
};

/**
 * The transaction that already holds the request's key, to answer again; undefined when none holds it.
 * The same key with a different request is a 409.
 */
export async function replayOf(
  db: Queryable,
  applicationId: string,
  idempotency: Idempotency,
): Promise<ReplayedTransaction | undefined> {
  const stored = await findByIdempotencyKey(db, applicationId, idempotency.key);
  if (!stored) return undefined;
  assertSameRequest(idempotency, stored);
  return {
    id: stored.id,
    txHash: stored.txHash,
    nonce: stored.nonce,
    contractAddress: stored.contractAddress ? getAddress(stored.contractAddress) : undefined,
  };
}
