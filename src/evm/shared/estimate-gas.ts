import type { Abi, Address, Hex } from 'viem';
import type { EvmNetwork } from '../../platform/chains/evm-networks.ts';
import { BadRequestError } from '../../platform/http/gateway-error.ts';
import { decodeRevertReason, revertDataFromError } from '../abi/decode-revert.ts';
import { classifyBroadcastError } from '../engine/broadcast-errors.ts';
import {
  errorCodes,
  insufficientFunds,
  nodeUnreachable,
  TransactionFailedError,
} from '../engine/engine-errors.ts';

/**
 * `eth_estimateGas`, with its failures turned into answers: a revert → 400 with the decoded reason,
 * too little money → ERROR_INSUFICIENT_FUNDS, an unreachable node → 503.
 */
export async function estimateGas(
  network: EvmNetwork,
  request: { from: Address; to: Address | undefined; data: Hex; value: bigint },
  abis: Abi[],
): Promise<bigint> {
  try {
    return await network.client.estimateGas({
      account: request.from,
      to: request.to,
      data: request.data,
      value: request.value,
    });
  } catch (error) {
    const data = revertDataFromError(error);
    const decoded = decodeRevertReason(abis, data);
    if (decoded) {
      throw new TransactionFailedError(
        `execution reverted: ${decoded.reason}`,
        errorCodes.estimationReverted,
        400,
        error,
      );
    }
    const outcome = classifyBroadcastError(error);
    if (outcome.kind === 'insufficientFunds') throw insufficientFunds(error);
    if (outcome.kind === 'unreachable') throw nodeUnreachable(network.chainId, error);
    const text = ((error as { details?: string }).details ?? (error as Error).message ?? '').toLowerCase();
    if (text.includes('revert')) {
      throw new TransactionFailedError('execution reverted', errorCodes.estimationReverted, 400, error);
    }
    throw new BadRequestError(
      `gas estimation failed: ${(error as { shortMessage?: string }).shortMessage ?? text}`,
      errorCodes.estimationReverted,
    );
  }
}
