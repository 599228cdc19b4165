import type { Abi } from 'viem';
import { loadStandardContracts } from './standard-contracts.ts';

let cached: Abi[] | undefined;

/** The ABIs of the standard contracts: a fallback for decoding events and errors of unknown contracts. */
export function standardAbis(): Abi[] {
  cached ??= loadStandardContracts().map((contract) => contract.abi);
  return cached;
}
