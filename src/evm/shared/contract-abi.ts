import type { Abi, Address } from 'viem';
import { BadRequestError } from '../../platform/http/gateway-error.ts';
import type { Platform } from '../../platform/platform.ts';
import { findDeployedContract } from '../engine/transactions.repository.ts';
import { type ContractSpecRow, findVisibleSpec } from '../specs/contract-specs.repository.ts';

export type ResolvedContract = { spec: ContractSpecRow; abi: Abi };

// Specs are immutable and a deployed contract's spec never changes, so both are cached for good
// (bounded); only misses reach the store.
const MAX_CACHED = 10_000;
const specCache = new Map<string, ResolvedContract>();
const deployedCache = new Map<string, { applicationId: string; specId: number }>();

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
  return value;
}

/**
 * The ABI to call `address` with: the given spec (shared or the caller's own), else the spec the
 * contract was deployed with through this service. Anything else needs a `contractSpecsId`.
 */
export async function resolveContractAbi(
  platform: Platform,
  applicationId: string,
  chainId: number,
  address: Address,
  contractSpecsId: number | undefined,
): Promise<ResolvedContract> {
  if (contractSpecsId !== undefined) return resolveSpec(platform, applicationId, contractSpecsId);
  const key = `${chainId}:${address.toLowerCase()}`;
  let deployed = deployedCache.get(key);
  if (!deployed) {
    const row = await findDeployedContract(platform.db, chainId, address);
    if (row)
      deployed = remember(deployedCache, key, { applicationId: row.application_id, specId: row.spec_id });
  }
  if (deployed) return resolveSpec(platform, deployed.applicationId, deployed.specId);
  throw new BadRequestError(
    `contractAddress ${address} was not deployed through chaingate on network ${chainId}: give its contractSpecsId`,
    'CG_ERR_UNKNOWN_CONTRACT',
  );
}

export async function resolveSpec(
  platform: Platform,
  applicationId: string,
  contractSpecsId: number,
): Promise<ResolvedContract> {
  const key = `${applicationId}:${contractSpecsId}`;
  const cached = specCache.get(key);
  if (cached) return cached;
  const spec = await findVisibleSpec(platform.db, applicationId, contractSpecsId);
  if (!spec)
    throw new BadRequestError(`contractSpecsId ${contractSpecsId} does not exist`, 'CG_ERR_UNKNOWN_SPEC');
  return remember(specCache, key, { spec, abi: spec.abi });
}
