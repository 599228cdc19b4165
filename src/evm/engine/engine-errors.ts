import { ChaingateError, quote } from '../../platform/errors/chaingate-error.ts';
import { transportFailureWords } from '../../platform/networks/node-failure.ts';

export function insufficientFunds(cause?: unknown): ChaingateError {
  return new ChaingateError('ERROR_INSUFICIENT_FUNDS', 'insufficient funds for gas * price + value', {
    cause,
  });
}

export function nodeUnreachable(chainId: number, cause?: unknown): ChaingateError {
  return new ChaingateError(
    'ERROR_NODE_UNREACHABLE',
    `the node of network ${chainId} ${transportFailureWords(cause)}`,
    {
      context: { chainId },
      cause,
    },
  );
}

/** The node refused the call for its rate limit (a hosted provider's): nothing was taken; retry later. */
export function nodeRateLimited(chainId: number, message: string, cause?: unknown): ChaingateError {
  return new ChaingateError(
    'CG_ERR_DEPENDENCY',
    `the node of network ${chainId} refused the call for its rate limit (${quote(message)}): nothing was sent, retry shortly`,
    { context: { chainId }, cause },
  );
}

export function nodePoolFull(chainId: number): ChaingateError {
  return new ChaingateError(
    'CG_ERR_DEPENDENCY',
    `the node of network ${chainId} refused the transaction because its pool is full (txpool is full): nothing was sent, retry shortly`,
    { context: { chainId } },
  );
}

export function badNonce(message: string): ChaingateError {
  return new ChaingateError('CG_ERR_BAD_NONCE', message);
}
