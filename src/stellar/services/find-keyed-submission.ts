import { assertSameRequest, type Idempotency } from '../../platform/idempotency/idempotency.ts';
import { findByIdempotencyKey, type KeyedSubmission } from '../engine/stellar-transactions.repository.ts';
import type { StellarContext } from './stellar-context.ts';

/**
 * The submission an application's earlier request with this idempotency key stored, if any; a 409 when
 * that request differs. Looked up before anything else runs: before simulating again, and before an
 * upload or a restore.
 */
export async function findKeyedSubmission(
  context: StellarContext,
  applicationId: string,
  idempotency: Idempotency,
): Promise<KeyedSubmission | undefined> {
  const stored = await findByIdempotencyKey(context.platform.db, applicationId, idempotency.key);
  if (!stored) return undefined;
  assertSameRequest(idempotency, stored);
  return stored;
}
