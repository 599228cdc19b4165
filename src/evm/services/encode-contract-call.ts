import { type Abi, type AbiFunction, type Address, encodeDeployData, type Hex } from 'viem';
import type { Application } from '../../applications/applications.service.ts';
import { ChaingateError, quote } from '../../platform/errors/chaingate-error.ts';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';
import { checksummed } from '../abi/checksum.ts';
import { coerceParams } from '../abi/coerce-params.ts';
import { encodeFunctionCall } from '../abi/function-call.ts';
import { resolveConstructor, resolveFunction } from '../abi/resolve-function.ts';
import { cachedContractAbi, resolveContractAbi, resolveSpec } from '../contracts/contract-abi.ts';
import { type ContractPresence, ensureContract, knownContract } from '../contracts/contract-code.ts';
import type { ContractSpecRow } from '../specs/contract-specs.repository.ts';
import type { EvmContext } from './evm-context.ts';
import { networkFor } from './resolve-network.ts';

/** An address as given by a client, checksummed; a wrong checksum is a 400 naming the field. */
export function checksumAddress(value: string, field: string): Address {
  const address = /^0x[0-9a-fA-F]{40}$/.test(value) ? checksummed(value) : undefined;
  if (address) return address;
  throw new ChaingateError(
    'CG_ERR_VALIDATION',
    `${field}: '${quote(value)}' has an invalid checksum (send it checksummed or all lower-case)`,
    { context: { field } },
  );
}

export type ContractCallRequest = {
  application: Application;
  chainId: number;
  contractAddress: string;
  contractSpecsId?: number | undefined;
  method: string;
  params: unknown[];
};

export type EncodedContractCall = {
  network: EvmNetwork;
  contractAddress: Address;
  spec: ContractSpecRow;
  abi: Abi;
  fn: AbiFunction;
  data: Hex;
  presence: ContractPresence;
};

/** Network, ABI, function and calldata of a call (send, view or estimate), each checked. */
export async function encodeContractCall(
  context: EvmContext,
  request: ContractCallRequest,
): Promise<EncodedContractCall> {
  const { db } = context.platform;
  const network = networkFor(context.platform, request.application, request.chainId);
  const contractAddress = checksumAddress(request.contractAddress, 'contractAddress');
  const { spec, abi } =
    cachedContractAbi(request.application.id, network.chainId, contractAddress, request.contractSpecsId) ??
    (await resolveContractAbi(
      db,
      request.application.id,
      network.chainId,
      contractAddress,
      request.contractSpecsId,
    ));
  // The params are checked before the node is asked whether a contract is there.
  const call = encodeWith(network, contractAddress, spec, abi, request);
  if (!knownContract(network.chainId, contractAddress)) {
    call.presence = await ensureContract(db, network, contractAddress);
  }
  return call;
}

/**
 * The same from the caches alone, without a promise (a view's hot path): undefined while the ABI or
 * the contract's presence is not cached yet. Throws what `encodeContractCall` rejects with.
 */
export function encodeCachedContractCall(
  context: EvmContext,
  request: ContractCallRequest,
): EncodedContractCall | undefined {
  const network = networkFor(context.platform, request.application, request.chainId);
  const contractAddress = checksumAddress(request.contractAddress, 'contractAddress');
  const cached = cachedContractAbi(
    request.application.id,
    network.chainId,
    contractAddress,
    request.contractSpecsId,
  );
  if (!cached || !knownContract(network.chainId, contractAddress)) return undefined;
  return encodeWith(network, contractAddress, cached.spec, cached.abi, request);
}

function encodeWith(
  network: EvmNetwork,
  contractAddress: Address,
  spec: ContractSpecRow,
  abi: Abi,
  request: ContractCallRequest,
): EncodedContractCall {
  const fn = resolveFunction(abi, request.method, request.params.length);
  const args = coerceParams(fn.inputs, request.params, 'params', fn.name);
  const data = encodeFunctionCall(fn, args as readonly unknown[]);
  return { network, contractAddress, spec, abi, fn, data, presence: 'deployed' };
}

export type EncodedDeploy = { network: EvmNetwork; spec: ContractSpecRow; abi: Abi; data: Hex };

/** The creation calldata of a stored spec with its constructor params checked. */
export async function encodeDeploy(
  context: EvmContext,
  request: { application: Application; chainId: number; contractSpecsId: number; params: unknown[] },
): Promise<EncodedDeploy> {
  const network = networkFor(context.platform, request.application, request.chainId);
  const { spec, abi } = await resolveSpec(
    context.platform.db,
    request.application.id,
    request.contractSpecsId,
  );
  if (!spec.bytecode) {
    throw new ChaingateError('CG_ERR_NO_BYTECODE', `contractSpecsId ${spec.id} has no bytecode to deploy`);
  }
  const args = coerceParams(resolveConstructor(abi).inputs, request.params, 'params', 'constructor');
  const data = encodeDeployData({ abi, bytecode: spec.bytecode as Hex, args } as never);
  return { network, spec, abi, data };
}
