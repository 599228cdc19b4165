import { type Address, getAddress, type Hex } from 'viem';
import type { Queryable } from '../../platform/db/database.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { Idempotency } from '../../platform/http/idempotency-key.ts';
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
 * The same key with a different request is a 409: answering the first transaction would tell the
 * client that a transaction it never asked for is its own.
 */
export async function replayOf(
  db: Queryable,
  applicationId: string,
  idempotency: Idempotency,
): Promise<ReplayedTransaction | undefined> {
  const stored = await findByIdempotencyKey(db, applicationId, idempotency.key);
  if (!stored) return undefined;
  if (stored.fingerprint !== idempotency.fingerprint) {
    throw new ChaingateError(
      'CG_ERR_IDEMPOTENCY_KEY_REUSED',
      `Idempotency-Key was used for a different request (transaction ${stored.txHash}); nothing was sent`,
      { context: { field: 'Idempotency-Key', txHash: stored.txHash } },
    );
  }
  return {
    id: stored.id,
    txHash: stored.txHash,
    nonce: stored.nonce,
    contractAddress: stored.contractAddress ? getAddress(stored.contractAddress) : undefined,
  };
}
