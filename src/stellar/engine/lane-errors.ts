import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';
import type { SendOutcome } from './send-outcome.ts';

/** What a request is answered when the network refused its transaction before any ledger. */
export function refusal(network: StellarNetwork, account: string, outcome: SendOutcome): ChaingateError {
  const code = outcome.kind === 'refused' ? outcome.code : 'txTooLate';
  if (code === 'txInsufficientBalance' || code === 'txNoAccount') {
    return new ChaingateError(
      'CG_ERR_STELLAR_INSUFFICIENT_BALANCE',
      `the application's account ${account} cannot pay the fee on network ${network.networkId} (${code}): fund it`,
    );
  }
  return new ChaingateError(
    'CG_ERR_STELLAR_REJECTED',
    `network ${network.networkId} refused the transaction: ${code}`,
  );
}

/** What a request is answered when its transaction did not reach the network: sending again is safe. */
export function notSubmitted(network: StellarNetwork, reason: string): ChaingateError {
  return new ChaingateError(
    'CG_ERR_STELLAR_UNREACHABLE',
    `${reason}; the transaction did not reach network ${network.networkId}, so sending it again is safe`,
  );
}

/** What a request is answered when the network kept refusing its sequence number, re-signed or not. */
export function sequenceRefused(network: StellarNetwork, account: string): ChaingateError {
  return new ChaingateError(
    'CG_ERR_STELLAR_REJECTED',
    `network ${network.networkId} kept refusing the sequence numbers of ${account} (txBadSeq); retry shortly`,
  );
}
