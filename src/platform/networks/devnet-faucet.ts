import { type Address, numberToHex, parseEther } from 'viem';
import type { EvmNetwork } from './evm-networks.ts';

const DEVNET_FAUCET_AMOUNT = parseEther('1000');

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
  network.afterStateChange?.();
  return true;
}

/**
 * Funds a new account on every network whose faucet the service drives (new senders and custodied
 * wallets). A failure is logged, not thrown: the account exists either way and can be funded later.
 */
export async function fundOnDevnets(
  networks: { all(): EvmNetwork[] },
  logger: { warn(object: object, message: string): void },
  address: Address,
): Promise<void> {
  for (const network of networks.all()) {
    if (!network.hasDevnetFaucet) continue;
    try {
      await fundFromFaucet(network, address);
    } catch (error) {
      logger.warn(
        { chainId: network.chainId, address, err: (error as Error).message },
        'faucet funding failed',
      );
    }
  }
}
