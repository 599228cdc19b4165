import type { Abi, Address, Hex } from 'viem';
import type { EvmNetwork } from '../../platform/chains/evm-networks.ts';
import { GatewayError } from '../../platform/http/gateway-error.ts';
import { errorCodes, TransactionFailedError } from '../engine/engine-errors.ts';
import { estimateGas } from './estimate-gas.ts';
import { standardAbis } from './standard-abis.ts';

/**
 * The estimate endpoints' answer. There a failed estimation, insufficient funds included, is the
 * caller's problem (400 with the reason), not a dependency failure.
 */
export async function estimateForEndpoint(
  network: EvmNetwork,
  request: { from: Address; to: Address | undefined; data: Hex; value: bigint },
  abis: Abi[],
): Promise<{ estimatedGas: number }> {
  try {
    return { estimatedGas: Number(await estimateGas(network, request, [...abis, ...standardAbis()])) };
  } catch (error) {
    if (error instanceof GatewayError && error.code === errorCodes.insufficientFunds) {
      throw new TransactionFailedError(error.shortMessage, error.code, 400, error);
    }
    throw error;
  }
}
