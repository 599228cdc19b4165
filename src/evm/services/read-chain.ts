import { formatEther, formatGwei, type Hex } from 'viem';
import type { Application } from '../../applications/applications.service.ts';
import type { EvmContext } from './evm-context.ts';
import { networkFor } from './resolve-network.ts';

/** The going gas price: GWEI as a number (as the spec) and the exact wei. */
export async function getGasPrice(
  context: EvmContext,
  parameters: { application: Application; chainId: number },
) {
  const network = networkFor(context.platform, parameters.application, parameters.chainId, 'network');
  const wei = await network.client.getGasPrice();
  return { gasPriceGwei: Number(formatGwei(wei)), gasPriceWei: wei };
}

/** A native balance: in whole coins as a number (as the spec) and the exact wei. */
export async function getBalance(
  context: EvmContext,
  parameters: { application: Application; chainId: number; account: string },
) {
  const network = networkFor(context.platform, parameters.application, parameters.chainId, 'network');
  const wei = await network.client.getBalance({ address: parameters.account.toLowerCase() as Hex });
  return { balance: Number(formatEther(wei)), balanceWei: wei };
}

/** Whether an address holds contract code. */
export async function isContract(
  context: EvmContext,
  parameters: { application: Application; chainId: number; address: string },
): Promise<boolean> {
  const network = networkFor(context.platform, parameters.application, parameters.chainId, 'network');
  const code = await network.client.getCode({ address: parameters.address.toLowerCase() as Hex });
  return code !== undefined && code !== '0x';
}
