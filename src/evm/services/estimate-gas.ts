import type { Abi, Address, Hex } from 'viem';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';
import { decodeRevertReason, revertDataFromError } from '../abi/decode-revert.ts';
import { standardAbis } from '../contract-library/standard-abis.ts';
import { classifyBroadcastError } from '../engine/broadcast-errors.ts';
import { insufficientFunds, nodeUnreachable } from '../engine/engine-errors.ts';

export type EstimateGasParameters = { from: Address; to: Address | undefined; data: Hex; value: bigint };

/**
 * `eth_estimateGas`, with its failures turned into coded errors: a revert → ERROR_EXECUTION_REVERTED
 * with the decoded reason (the given ABIs, then the standard contracts'), too little money →
 * ERROR_INSUFICIENT_FUNDS, a node that does not answer → ERROR_NODE_UNREACHABLE.
 */
export async function estimateGas(
  network: EvmNetwork,
  request: EstimateGasParameters,
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
    const decoded = decodeRevertReason([...abis, ...standardAbis()], revertDataFromError(error));
    if (decoded) {
      throw new ChaingateError('ERROR_EXECUTION_REVERTED', `execution reverted: ${decoded.reason}`, {
        cause: error,
      });
    }
    const outcome = classifyBroadcastError(error);
    if (outcome.kind === 'insufficientFunds') throw insufficientFunds(error);
    if (outcome.kind === 'unreachable') throw nodeUnreachable(network.chainId, error);
    const text = ((error as { details?: string }).details ?? (error as Error).message ?? '').toLowerCase();
    if (text.includes('revert')) {
      throw new ChaingateError('ERROR_EXECUTION_REVERTED', 'execution reverted', { cause: error });
    }
    const reason = (error as { shortMessage?: string }).shortMessage ?? text;
    throw new ChaingateError('ERROR_EXECUTION_REVERTED', `gas estimation failed: ${reason.slice(0, 300)}`, {
      cause: error,
    });
  }
}
