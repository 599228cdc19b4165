import type { Address, Hex } from 'viem';
import type { Application } from '../../applications/applications.service.ts';
import { checksumAddress, encodeDeploy } from './encode-contract-call.ts';
import { estimateGas } from './estimate-gas.ts';
import type { EvmContext } from './evm-context.ts';
import { type SendOptions, sendTransaction } from './send-transaction.ts';

export type DeployContractParameters = SendOptions & {
  application: Application;
  chainId: number;
  contractSpecsId: number;
  params: unknown[];
  sender: string;
  /** Name of the deployed contract; the address when absent. */
  alias?: string | undefined;
};

export type DeployContractReturnType = { id: string; contractAddress: Address; txHash: Hex; nonce: number };

/** Deploys a stored spec; resolves once the node accepted the transaction (written ahead, tracked). */
export async function deployContract(
  context: EvmContext,
  parameters: DeployContractParameters,
): Promise<DeployContractReturnType> {
  const { network, spec, abi, data } = await encodeDeploy(context, parameters);
  const sent = await sendTransaction(context, {
    ...parameters,
    network,
    sender: checksumAddress(parameters.sender, 'sender'),
    kind: 'deploy',
    to: undefined,
    data,
    value: 0n,
    specId: spec.id,
    method: 'constructor',
    abis: [abi],
    deployment: { specId: spec.id, alias: parameters.alias ?? null },
  });
  return {
    id: sent.id,
    contractAddress: sent.contractAddress as Address,
    txHash: sent.txHash,
    nonce: sent.nonce,
  };
}

export type EstimateDeployContractGasParameters = {
  application: Application;
  chainId: number;
  contractSpecsId: number;
  params: unknown[];
  /** Any address: no key is needed to estimate. */
  sender: string;
};

export async function estimateDeployContractGas(
  context: EvmContext,
  parameters: EstimateDeployContractGasParameters,
): Promise<bigint> {
  const { network, abi, data } = await encodeDeploy(context, parameters);
  return estimateGas(
    network,
    { from: checksumAddress(parameters.sender, 'sender'), to: undefined, data, value: 0n },
    [abi],
  );
}
