import { type Address, numberToHex, parseEther } from 'viem';
import type { EvmNetwork } from './evm-networks.ts';

export const DEVNET_FAUCET_AMOUNT = parseEther('1000');

/**
 * Tops an account up to the faucet amount on networks that have a faucet the service can drive
 * (the anvil devnet). Returns false on networks without one.
 */
export async function fundFromFaucet(
  network: EvmNetwork,
  address: Address,
  amountWei: bigint = DEVNET_FAUCET_AMOUNT,
): Promise<boolean> {
  if (!network.hasDevnetFaucet) return false;
  const balance = await network.client.getBalance({ address });
  if (balance >= amountWei) return true;
  await network.client.request({
    method: 'anvil_setBalance' as never,
    params: [address, numberToHex(amountWei)] as never,
  });
  return true;
}
