import type { Hex } from 'viem';
import type { EvmAccountKind } from '../../platform/custody/evm-accounts.repository.ts';
import { type ContractCallRequest, checksumAddress, encodeContractCall } from './encode-contract-call.ts';
import { estimateGas } from './estimate-gas.ts';
import type { EvmContext } from './evm-context.ts';
import { type SendOptions, sendTransaction } from './send-transaction.ts';

export type SendContractCallParameters = ContractCallRequest &
  SendOptions & {
    sender: string;
    /** Wei sent with the call. */
    value?: bigint | undefined;
    senderKinds?: readonly EvmAccountKind[];
  };

export type SendContractCallReturnType = { id: string; txHash: Hex; nonce: number };

/** A state-changing call by function name and JSON params; resolves once the node accepted it. */
export async function sendContractCall(
  context: EvmContext,
  parameters: SendContractCallParameters,
): Promise<SendContractCallReturnType> {
  const { network, contractAddress, spec, abi, fn, data, presence } = await encodeContractCall(
    context,
    parameters,
  );
  const sent = await sendTransaction(context, {
    ...parameters,
    network,
    sender: checksumAddress(parameters.sender, 'sender'),
    kind: 'call',
    to: contractAddress,
    data,
    value: parameters.value ?? 0n,
    specId: spec.id,
    method: fn.name,
    abis: [abi],
    targetPending: presence === 'pending',
  });
  return { id: sent.id, txHash: sent.txHash, nonce: sent.nonce };
}

export type EstimateContractCallGasParameters = ContractCallRequest & {
  /** Any address: no key is needed to estimate. */
  sender: string;
  value?: bigint | undefined;
};

export async function estimateContractCallGas(
  context: EvmContext,
  parameters: EstimateContractCallGasParameters,
): Promise<bigint> {
  const { network, contractAddress, abi, data } = await encodeContractCall(context, parameters);
  return estimateGas(
    network,
    {
      from: checksumAddress(parameters.sender, 'sender'),
      to: contractAddress,
      data,
      value: parameters.value ?? 0n,
    },
    [abi],
  );
}
