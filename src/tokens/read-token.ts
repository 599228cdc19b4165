import { type Abi, type Address, decodeFunctionResult, encodeFunctionData, type Hex } from 'viem';
import { decodeRevertReason, type RevertReason, revertDataFromError } from '../evm/abi/decode-revert.ts';
import { standardAbis } from '../evm/contract-library/standard-abis.ts';
import type { EvmNetwork } from '../platform/networks/evm-networks.ts';
import { executionFailureMessage } from '../platform/networks/node-failure.ts';

export type ReadTokenParameters = {
  address: Address;
  abi: Abi;
  functionName: string;
  args?: readonly unknown[];
};

/**
 * What one `eth_call` answered, as a tagged union: the caller decides what a revert or an empty answer
 * means for its endpoint (a missing token, a contract of another kind).
 */
export type ReadTokenReturnType<T> =
  | { kind: 'value'; value: T }
  /** The call reverted; `reason` when the revert data decodes with the standard contracts' errors. */
  | { kind: 'reverted'; reason: RevertReason | undefined }
  /** `0x`: no code at the address, or a fallback that returns nothing. */
  | { kind: 'empty' }
  /** Data that is not the function's outputs: another kind of contract. */
  | { kind: 'undecodable' };

/** A revert, or the EVM stopping the call (out of gas, an invalid opcode): the contract's answer. */
function isRevert(error: unknown, data: Hex | undefined): boolean {
  return data !== undefined || executionFailureMessage(error) !== undefined;
}

/**
 * One read-only call of a token contract at the latest block. A transport failure is thrown as is
 * (the error handler answers it with ERROR_NODE_UNREACHABLE); everything the contract answers is returned.
 */
export async function readToken<T = unknown>(
  network: EvmNetwork,
  parameters: ReadTokenParameters,
): Promise<ReadTokenReturnType<T>> {
  const { abi, functionName, address } = parameters;
  const args = parameters.args ?? [];
  const data = encodeFunctionData({ abi, functionName, args } as never);
  let result: Hex;
  try {
    result = (await network.rpc('eth_call', [{ to: address, data }, 'latest'])) as Hex;
  } catch (error) {
    const revertData = revertDataFromError(error);
    if (!isRevert(error, revertData)) throw error;
    return { kind: 'reverted', reason: decodeRevertReason([abi, ...standardAbis()], revertData) };
  }
  if (result === '0x') return { kind: 'empty' };
  try {
    return {
      kind: 'value',
      value: decodeFunctionResult({ abi, functionName, args, data: result } as never) as T,
    };
  } catch {
    return { kind: 'undecodable' };
  }
}
