import { ChaingateError } from '../../platform/errors/chaingate-error.ts';

export function insufficientFunds(cause?: unknown): ChaingateError {
  return new ChaingateError('ERROR_INSUFICIENT_FUNDS', 'insufficient funds for gas * price + value', {
    cause,
  });
}

export function nodeUnreachable(chainId: number, cause?: unknown): ChaingateError {
  return new ChaingateError(
    'ERROR_NODE_UNREACHABLE',
    `the node of network ${chainId} did not answer in time`,
    {
      context: { chainId },
      cause,
    },
  );
}

export function badNonce(message: string): ChaingateError {
  return new ChaingateError('CG_ERR_BAD_NONCE', message);
}
