import { BadRequestError, DependencyError, GatewayError } from '../../platform/http/gateway-error.ts';

/** The transaction failed before reaching the chain; `errorInfo.code` of the record carries `code`. */
export class TransactionFailedError extends GatewayError {
  override name = 'TransactionFailedError';
  constructor(message: string, code: string, statusCode: 400 | 503, cause?: unknown) {
    super(message, { code, statusCode, cause });
  }
}

export const errorCodes = {
  insufficientFunds: 'ERROR_INSUFICIENT_FUNDS',
  estimationReverted: 'ERROR_EXECUTION_REVERTED',
  gasLimitTooLow: 'ERROR_GAS_LIMIT_TOO_LOW',
  nodeUnreachable: 'ERROR_NODE_UNREACHABLE',
  rejectedByNode: 'ERROR_REJECTED_BY_NODE',
  replaced: 'ERROR_REPLACED',
  replacementUnderpriced: 'ERROR_REPLACEMENT_UNDERPRICED',
  feeAboveCeiling: 'ERROR_FEE_ABOVE_CEILING',
  nonceConflict: 'ERROR_NONCE_CONFLICT',
  nonceTooHigh: 'ERROR_NONCE_TOO_HIGH',
  reverted: 'ERROR_EVM_REVERTED',
} as const;

export function insufficientFunds(cause?: unknown): TransactionFailedError {
  return new TransactionFailedError(
    'insufficient funds for gas * price + value',
    errorCodes.insufficientFunds,
    503,
    cause,
  );
}

export function nodeUnreachable(chainId: number, cause?: unknown): DependencyError {
  return new DependencyError(
    `the node of network ${chainId} is unreachable`,
    errorCodes.nodeUnreachable,
    cause,
  );
}

export function badNonce(message: string): BadRequestError {
  return new BadRequestError(message, 'CG_ERR_BAD_NONCE');
}
