import { type FeeBumpTransaction, type Transaction, TransactionBuilder } from '@stellar/stellar-sdk';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';
import { rpcCall } from '../network/rpc-call.ts';

/** What the network answered to `sendTransaction`, as the engine acts on it. */
export type SendOutcome =
  /** In the network's queue (PENDING), or already there (DUPLICATE). */
  | { kind: 'accepted' }
  /** The queue is full for this account or the network: submit the same envelope again later. */
  | { kind: 'tryAgainLater' }
  /** The sequence number is not the account's next one. */
  | { kind: 'badSequence' }
  /** The envelope's time bounds have passed: it can never be accepted. */
  | { kind: 'expired' }
  | { kind: 'refused'; code: string }
  /**
   * No answer. `maybeDelivered`: the request may have reached the network all the same (a timeout, a
   * dropped connection, a gateway's 5xx), so the transaction may be in its queue; false when it surely
   * did not (a refused connection, an HTTP 4xx).
   */
  | { kind: 'unreachable'; message: string; maybeDelivered: boolean };

/** Submits a stored envelope and classifies the answer; never throws for a network problem. */
export async function submitEnvelope(network: StellarNetwork, envelopeXdr: string): Promise<SendOutcome> {
  let transaction: Transaction | FeeBumpTransaction;
  try {
    transaction = TransactionBuilder.fromXDR(envelopeXdr, network.passphrase);
  } catch {
    return { kind: 'refused', code: 'txMalformed' };
  }
  try {
    const answer = await rpcCall(network, (server) => server.sendTransaction(transaction));
    switch (answer.status) {
      case 'PENDING':
      case 'DUPLICATE':
        return { kind: 'accepted' };
      case 'TRY_AGAIN_LATER':
        return { kind: 'tryAgainLater' };
      default: {
        const code = answer.errorResult?.result().switch().name ?? 'txInternalError';
        if (code === 'txBadSeq') return { kind: 'badSequence' };
        if (code === 'txTooLate') return { kind: 'expired' };
        return { kind: 'refused', code };
      }
    }
  } catch (error) {
    if (error instanceof ChaingateError)
      return {
        kind: 'unreachable',
        message: error.shortMessage,
        maybeDelivered: error.context.maybeDelivered !== false,
      };
    return {
      kind: 'unreachable',
      message: `network ${network.networkId}: ${(error as Error).message}`,
      maybeDelivered: true,
    };
  }
}
