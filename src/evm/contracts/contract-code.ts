import type { Address, Hex } from 'viem';
import type { Queryable } from '../../platform/db/database.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';
import { findDeployedContract } from './evm-contracts.repository.ts';

const MAX_CACHED = 10_000;
// Code, once there, stays (self-destruct no longer clears it since Cancun); only positive answers are kept.
// Per network, by checksummed address: `checksummed` hands out one string per address, whose hash V8
// keeps, so a lookup builds no key, and a network is forgotten without a walk over every key.
const withCode = new Map<number, Set<Address>>();
let cachedCount = 0;

export type ContractPresence = 'deployed' | 'pending';

/** Whether `address` (checksummed) is known to hold code on the network: `ensureContract` without a promise. */
export function knownContract(chainId: number, address: Address): boolean {
  return withCode.get(chainId)?.has(address) === true;
}

/**
 * A call needs code at its address: else it would be mined as a plain call to an empty account,
 * "confirmed" and doing nothing. A contract this service is still deploying counts too (the deploy
 * holds an earlier nonce of the same store, so it is mined first), answered as `pending`.
 */
export async function ensureContract(
  db: Queryable,
  network: EvmNetwork,
  address: Address,
): Promise<ContractPresence> {
  if (knownContract(network.chainId, address)) return 'deployed';
  const code = (await network.client.getCode({ address: address.toLowerCase() as Hex })) ?? '0x';
  if (code !== '0x') {
    if (cachedCount >= MAX_CACHED) {
      withCode.clear();
      cachedCount = 0;
    }
    const addresses = withCode.get(network.chainId) ?? new Set<Address>();
    withCode.set(network.chainId, addresses);
    if (!addresses.has(address)) cachedCount++;
    addresses.add(address);
    return 'deployed';
  }
  const deploy = await findDeployedContract(db, network.chainId, address);
  if (deploy && ['signed', 'inserted', 'processing'].includes(deploy.state)) return 'pending';
  throw new ChaingateError(
    'CG_ERR_NOT_A_CONTRACT',
    `contractAddress ${address} holds no contract on network ${network.chainId}`,
    { context: { address, chainId: network.chainId } },
  );
}

/** Forgets what was learnt of a network's code (the chain lost blocks). */
export function forgetContractCode(chainId: number): void {
  cachedCount -= withCode.get(chainId)?.size ?? 0;
  withCode.delete(chainId);
}
