import { hash } from '@stellar/stellar-sdk';
import { setBounded } from '../../platform/caches/bounded.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';
import { type InstanceEntry, readCode, readInstance } from '../network/ledger-entries.ts';
import { ContractSpec } from '../spec/contract-spec.ts';
import { decodeSpecEntries, readCustomSections } from '../spec/wasm-module.ts';

/** Specs by wasm hash: code is immutable, so a spec read once is good forever. */
const specsByWasm = new Map<string, ContractSpec>();
const MAX_CACHED_SPECS = 512;

export type DeployedContract = { instance: InstanceEntry; spec: ContractSpec; wasmHash: Buffer };

/** The spec a wasm carries in its contractspecv0 section (empty when it has none). */
export function specOfWasm(wasm: Buffer): ContractSpec {
  const key = hash(wasm).toString('hex');
  const cached = specsByWasm.get(key);
  if (cached) return cached;
  const sections = readCustomSections(wasm).get('contractspecv0') ?? [];
  const spec = new ContractSpec(decodeSpecEntries(Buffer.concat(sections.map((part) => Buffer.from(part)))));
  setBounded(specsByWasm, key, spec, MAX_CACHED_SPECS);
  return spec;
}

/**
 * A deployed contract's instance and its own spec, read from the network (the instance names its
 * wasm, the wasm carries the spec): any contract can be invoked, not only those deployed here.
 */
export async function deployedContract(
  network: StellarNetwork,
  address: string,
  field: string,
): Promise<DeployedContract> {
  const instance = await readInstance(network, address);
  if (!instance) {
    throw new ChaingateError(
      'CG_ERR_STELLAR_UNKNOWN_CONTRACT',
      `${field}: no contract instance ${address} on network ${network.networkId}`,
    );
  }
  if (!instance.wasmHash) {
    throw new ChaingateError(
      'CG_ERR_STELLAR_UNKNOWN_CONTRACT',
      `${field}: ${address} is a Stellar Asset Contract, which has no contract spec to call it by`,
    );
  }
  const cached = specsByWasm.get(instance.wasmHash.toString('hex'));
  if (cached) return { instance, spec: cached, wasmHash: instance.wasmHash };
  const code = await readCode(network, instance.wasmHash);
  if (!code) {
    throw new ChaingateError(
      'CG_ERR_STELLAR_UNKNOWN_CONTRACT',
      `${field}: the wasm of ${address} is not on network ${network.networkId}`,
    );
  }
  let spec: ContractSpec;
  try {
    spec = specOfWasm(code.code);
  } catch {
    throw new ChaingateError(
      'CG_ERR_STELLAR_UNKNOWN_CONTRACT',
      `${field}: the wasm of ${address} carries no readable contract spec`,
    );
  }
  return { instance, spec, wasmHash: instance.wasmHash };
}
