import { type Address, encodeFunctionData, type Hex } from 'viem';
import type { Application } from '../applications/applications.service.ts';
import { deployContract } from '../evm/services/deploy-contract.ts';
import type { EvmContext } from '../evm/services/evm-context.ts';
import { networkFor } from '../evm/services/resolve-network.ts';
import { type SendOptions, sendTransaction } from '../evm/services/send-transaction.ts';
import { findStandardSpec } from '../evm/specs/contract-specs.repository.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { OpenTokenContractReturnType } from './token-contract.ts';
import { type TokenStandard, tokenAbi } from './token-standards.ts';

const specIds = new Map<TokenStandard, number>();

/** Id of the shared spec of a standard (seeded at start; stable across restarts). */
export async function standardSpecId(db: Queryable, standard: TokenStandard): Promise<number> {
  const cached = specIds.get(standard);
  if (cached !== undefined) return cached;
  const spec = await findStandardSpec(db, standard);
  if (!spec) throw new Error(`the shared spec ${standard} is not seeded`);
  specIds.set(standard, spec.id);
  return spec.id;
}

export type SendTokenCallParameters = SendOptions & {
  application: Application;
  contract: OpenTokenContractReturnType;
  signer: Address;
  functionName: string;
  args: readonly unknown[];
};

export type SendTokenCallReturnType = { id: string; txHash: Hex; nonce: number };

/**
 * A token facade's state change: one encode with the standard ABI and one call of the EVM sending path,
 * so the transaction is written ahead, tracked and visible in the status endpoints like any other.
 */
export async function sendTokenCall(
  context: EvmContext,
  parameters: SendTokenCallParameters,
): Promise<SendTokenCallReturnType> {
  const { contract, functionName, args } = parameters;
  const abi = tokenAbi(contract.standard);
  const data = encodeFunctionData({ abi, functionName, args } as never);
  const sent = await sendTransaction(context, {
    ...parameters,
    network: contract.network,
    sender: parameters.signer,
    kind: 'call',
    to: contract.address,
    data,
    value: 0n,
    specId: await standardSpecId(context.platform.db, contract.standard),
    method: functionName,
    abis: [abi],
    targetPending: contract.pending,
  });
  return { id: sent.id, txHash: sent.txHash, nonce: sent.nonce };
}

export type DeployTokenContractParameters = SendOptions & {
  application: Application;
  chainId: number;
  standard: TokenStandard;
  /** Constructor parameters, in order, as the sending path coerces them. */
  params: unknown[];
  signer: Address;
  alias: string | undefined;
};

export type DeployTokenContractReturnType = { contractAddress: Address; txHash: Hex; nonce: number };

/**
 * Deploys a standard contract with its shared spec and the alias, so the contract is recorded with its
 * standard (the contracts list, the holders index, decoded inputs and logs need no contractSpecsId).
 */
export async function deployTokenContract(
  context: EvmContext,
  parameters: DeployTokenContractParameters,
): Promise<DeployTokenContractReturnType> {
  // Checked here first so an unknown network is reported under the token APIs' field name.
  networkFor(context.platform, parameters.application, parameters.chainId, 'network');
  const deployed = await deployContract(context, {
    ...parameters,
    contractSpecsId: await standardSpecId(context.platform.db, parameters.standard),
    sender: parameters.signer,
  });
  return { contractAddress: deployed.contractAddress, txHash: deployed.txHash, nonce: deployed.nonce };
}
