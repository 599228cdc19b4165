import type { Abi, Address } from 'viem';
import type { Queryable } from '../../platform/db/database.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { type ContractSpecRow, findVisibleSpec } from '../specs/contract-specs.repository.ts';
import { findDeployedContract } from './evm-contracts.repository.ts';

export type ResolvedContract = { spec: ContractSpecRow; abi: Abi };

// Specs are immutable and a deployed contract's spec never changes, so both are cached for good
// (bounded); only misses reach the store.
const MAX_CACHED = 10_000;
const specCache = new Map<string, ResolvedContract>();
const deployedCache = new Map<string, number>();

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
  return value;
}

/**
 * The ABI to call `address` with, from what the caller may see only: the given spec (shared or the
 * caller's own), else the spec the contract was deployed with through this service when that spec is
 * visible to the caller (its own deploy, or a shared standard). Another application's private spec
 * is never used, so its function names cannot leak through an error message or be called.
 */
export async function resolveContractAbi(
  db: Queryable,
  applicationId: string,
  chainId: number,
  address: Address,
  contractSpecsId: number | undefined,
): Promise<ResolvedContract> {
  if (contractSpecsId !== undefined) return resolveSpec(db, applicationId, contractSpecsId);
  const key = `${chainId}:${address.toLowerCase()}`;
  let specId = deployedCache.get(key);
  if (specId === undefined) {
    const row = await findDeployedContract(db, chainId, address);
    if (row && row.state !== 'error') specId = remember(deployedCache, key, row.spec_id);
  }
  const spec = specId === undefined ? undefined : await findSpec(db, applicationId, specId);
  if (spec) return spec;
  throw new ChaingateError(
    'CG_ERR_UNKNOWN_CONTRACT',
    `ABI unknown: pass contractSpecsId (${address} on network ${chainId} was not deployed by this application with a spec it can use)`,
    { context: { address, chainId } },
  );
}

async function findSpec(
  db: Queryable,
  applicationId: string,
  specId: number,
): Promise<ResolvedContract | undefined> {
  const key = `${applicationId}:${specId}`;
  const cached = specCache.get(key);
  if (cached) return cached;
  const spec = await findVisibleSpec(db, applicationId, specId);
  return spec ? remember(specCache, key, { spec, abi: spec.abi }) : undefined;
}

/** A spec the application may use (shared or its own), else 400. */
export async function resolveSpec(
  db: Queryable,
  applicationId: string,
  contractSpecsId: number,
): Promise<ResolvedContract> {
  const found = await findSpec(db, applicationId, contractSpecsId);
  if (found) return found;
  throw new ChaingateError('CG_ERR_UNKNOWN_SPEC', `contractSpecsId ${contractSpecsId} does not exist`, {
    context: { contractSpecsId },
  });
}
