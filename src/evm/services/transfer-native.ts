import type { Hex } from 'viem';
import type { Application } from '../../applications/applications.service.ts';
import type { EvmAccountKind } from '../../platform/custody/evm-accounts.repository.ts';
import { insufficientFunds } from '../engine/engine-errors.ts';
import { checksumAddress } from './encode-contract-call.ts';
import { estimateGas } from './estimate-gas.ts';
import type { EvmContext } from './evm-context.ts';
import { networkFor } from './resolve-network.ts';
import { type SendOptions, sendTransaction } from './send-transaction.ts';

export type TransferNativeParameters = SendOptions & {
  application: Application;
  chainId: number;
  sender: string;
  recipient: string;
  /** Wei. */
  value: bigint;
  senderKinds?: readonly EvmAccountKind[];
};

export type TransferNativeReturnType = { id: string; txHash: Hex; nonce: number };

/** Sends the network's native coin from one of the application's accounts. */
export async function transferNative(
  context: EvmContext,
  parameters: TransferNativeParameters,
): Promise<TransferNativeReturnType> {
  const network = networkFor(context.platform, parameters.application, parameters.chainId);
  const sent = await sendTransaction(context, {
    ...parameters,
    network,
    sender: checksumAddress(parameters.sender, 'sender'),
    kind: 'transfer',
    to: checksumAddress(parameters.recipient, 'recipient'),
    data: '0x',
    specId: null,
    method: null,
    abis: [],
  });
  return { id: sent.id, txHash: sent.txHash, nonce: sent.nonce };
}

export type EstimateTransferNativeGasParameters = {
  application: Application;
  chainId: number;
  /** Any address: no key is needed to estimate. */
  sender: string;
  recipient: string;
  value: bigint;
};

/** The gas of a native transfer; a sender without gas × price + value gets ERROR_INSUFICIENT_FUNDS. */
export async function estimateTransferNativeGas(
  context: EvmContext,
  parameters: EstimateTransferNativeGasParameters,
): Promise<bigint> {
  const network = networkFor(context.platform, parameters.application, parameters.chainId);
  const from = checksumAddress(parameters.sender, 'sender');
  const to = checksumAddress(parameters.recipient, 'recipient');
  const estimate = await estimateGas(network, { from, to, data: '0x', value: parameters.value }, []);
  // Some nodes (anvil) estimate without looking at the balance; the spec wants the check.
  const [balance, gasPrice] = await Promise.all([
    network.client.getBalance({ address: from }),
    network.client.getGasPrice(),
  ]);
  if (balance < parameters.value + estimate * gasPrice) throw insufficientFunds();
  return estimate;
}
