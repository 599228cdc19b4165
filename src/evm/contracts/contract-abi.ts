import type { Abi, Address } from 'viem';
import type { Queryable } from '../../platform/db/database.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { type ContractSpecRow, findVisibleSpec } from '../specs/contract-specs.repository.ts';
import { findDeployedContract } from './evm-contracts.repository.ts';

export type ResolvedContract = { spec: ContractSpecRow; abi: Abi };

// Specs are immutable and a deployed contract's spec never changes, so both are cached for good
// (bounded); only misses reach the store. Keyed in two levels by values as they come (a checksummed
// address is canonical), so a hit builds no key string.
const MAX_CACHED = 10_000;
const specCache = new Map<string, Map<number, ResolvedContract>>();
const deployedCache = new Map<number, Map<Address, number>>();
let cachedCount = 0;

function remember<K, V>(cache: Map<K, V>, key: K, value: V): V {
  if (cachedCount >= MAX_CACHED) {
    specCache.clear();
    deployedCache.clear();
    cachedCount = 0;
  }
  cachedCount++;
  cache.set(key, value);
  return value;
}

function inner<K, V>(outer: Map<K, Map<unknown, unknown>>, key: K): Map<unknown, V> {
  let map = outer.get(key);
  if (!map) {
    map = new Map();
    outer.set(key, map);
  }
  return map as Map<unknown, V>;
}

/**
 * The ABI to call `address` (checksummed) with, from what the caller may see only: the given spec
 * (shared or the caller's own), else the spec the contract was deployed with through this service when
 * that spec is visible to the caller (its own deploy, or a shared standard). Another application's
 * private spec is never used, so its function names cannot leak through an error message or be called.
 */
export async function resolveContractAbi(
  db: Queryable,
  applicationId: string,
  chainId: number,
  address: Address,
  contractSpecsId: number | undefined,
): Promise<ResolvedContract> {
  const known = cachedContractAbi(applicationId, chainId, address, contractSpecsId);
  if (known) return known;
  if (contractSpecsId !== undefined) return resolveSpec(db, applicationId, contractSpecsId);
  let specId = deployedCache.get(chainId)?.get(address);
  if (specId === undefined) {
    const row = await findDeployedContract(db, chainId, address);
    if (row && row.state !== 'error') specId = remember(inner(deployedCache, chainId), address, row.spec_id);
  }
  const spec = specId === undefined ? undefined : await findSpec(db, applicationId, specId);
  if (spec) return spec;
  throw new ChaingateError(
    'CG_ERR_UNKNOWN_CONTRACT',
    `ABI unknown: pass contractSpecsId (${address} on network ${chainId} was not deployed by this application with a spec it can use)`,
    { context: { address, chainId } },
  );
}

/** What `resolveContractAbi` answers when everything it needs is cached, without a promise; else undefined. */
export function cachedContractAbi(
  applicationId: string,
  chainId: number,
  address: Address,
  contractSpecsId: number | undefined,
): ResolvedContract | undefined {
  const specId = contractSpecsId ?? deployedCache.get(chainId)?.get(address);
  return specId === undefined ? undefined : specCache.get(applicationId)?.get(specId);
}

async function findSpec(
  db: Queryable,
  applicationId: string,
  specId: number,
): Promise<ResolvedContract | undefined> {
  const cached = specCache.get(applicationId)?.get(specId);
  if (cached) return cached;
  const spec = await findVisibleSpec(db, applicationId, specId);
  return spec ? remember(inner(specCache, applicationId), specId, { spec, abi: spec.abi }) : undefined;
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
