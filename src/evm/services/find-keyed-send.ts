import type { Idempotency } from '../../platform/idempotency/idempotency.ts';
import { type ReplayedTransaction, replayOf } from '../engine/idempotent-replay.ts';
import type { EvmContext } from './evm-context.ts';

/**
 * The transaction an application's earlier request with this idempotency key stored, if any; a 409 when
 * that request differs. Looked up before anything else runs, so a retry answers the first transaction
 * even when the facade's own checks would now refuse it (a token minted by that very transaction).
 */
export function findKeyedSend(
  context: EvmContext,
  applicationId: string,
  idempotency: Idempotency,
): Promise<ReplayedTransaction | undefined> {
  return replayOf(context.platform.db, applicationId, idempotency);
}
