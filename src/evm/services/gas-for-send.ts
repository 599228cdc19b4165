import type { Abi } from 'viem';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';
import { type EstimateGasParameters, estimateGas } from './estimate-gas.ts';

const MAX_REMEMBERED = 10_000;

/** Per network: the estimates made against its current latest block, by exact request. */
const sameBlock = new Map<number, { block: bigint; estimates: Map<string, Promise<bigint>> }>();

/**
 * The gas a send needs. The same request (sender, target, value, calldata) estimated against the
 * same latest block gets the same answer, so within a block it is asked once and shared, also by
 * concurrent sends: exactly what the node would answer again. A failed estimate is not kept.
 */
export async function gasForSend(
  network: EvmNetwork,
  request: EstimateGasParameters,
  abis: Abi[],
): Promise<bigint> {
  const block = await network.client.getBlockNumber();
  let cache = sameBlock.get(network.chainId);
  if (!cache || cache.block !== block) {
    cache = { block, estimates: new Map() };
    sameBlock.set(network.chainId, cache);
  }
  const key = `${request.from}:${request.to ?? ''}:${request.value}:${request.data}`;
  const known = cache.estimates.get(key);
  if (known) return known;
  const estimate = estimateGas(network, request, abis);
  if (cache.estimates.size < MAX_REMEMBERED) {
    const estimates = cache.estimates;
    estimates.set(key, estimate);
    estimate.catch(() => estimates.delete(key));
  }
  return estimate;
}
