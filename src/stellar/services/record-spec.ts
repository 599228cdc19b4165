import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';
import type { Platform } from '../../platform/platform.ts';
import { findDeployedContract } from '../contracts/stellar-contracts.repository.ts';
import type { StellarTransactionRow } from '../engine/transaction-record.ts';
import { ContractSpec } from '../spec/contract-spec.ts';
import { findSpecXdr } from '../specs/stellar-specs.repository.ts';
import { deployedContract } from './contract-spec-of.ts';

async function savedSpec(platform: Platform, specId: number): Promise<ContractSpec | undefined> {
  const specXdr = await findSpecXdr(platform.db, specId);
  return specXdr ? ContractSpec.fromXdr(specXdr) : undefined;
}

/**
 * A contract's spec: the saved one it was deployed from here, else the one its wasm carries on chain;
 * undefined when it has none (no instance, a Stellar Asset Contract, no readable wasm). A network that
 * did not answer is thrown: "no spec" is not what it said.
 */
export async function specOfContract(
  platform: Platform,
  network: StellarNetwork,
  address: string,
): Promise<ContractSpec | undefined> {
  const deployed = await findDeployedContract(platform.db, network.networkId, address);
  if (deployed) return savedSpec(platform, deployed.spec_id);
  try {
    return (await deployedContract(network, address, 'address')).spec;
  } catch (error) {
    if (error instanceof ChaingateError && error.code === 'CG_ERR_STELLAR_UNKNOWN_CONTRACT') return undefined;
    throw error;
  }
}

/** The spec a record's return value, arguments and contract errors decode with, when one is known. */
export async function specForRecord(
  platform: Platform,
  row: StellarTransactionRow,
): Promise<ContractSpec | undefined> {
  if (row.spec_id !== null) return savedSpec(platform, row.spec_id);
  const network = platform.stellar.get(row.network_id);
  if (!network || !row.contract_address) return undefined;
  return specOfContract(platform, network, row.contract_address);
}
