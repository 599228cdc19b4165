import type { Abi, Address, Hex } from 'viem';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';
import { executionFailureMessage } from '../../platform/networks/node-failure.ts';
import { decodeRevertReason, executionFailureAnswer, revertDataFromError } from '../abi/decode-revert.ts';
import type { TransactionRow } from './transaction-record.ts';

/**
 * Why a mined transaction reverted: receipts carry no reason, so the call is replayed at its block
 * and the revert data decoded with the ABIs that may apply.
 */
export async function replayRevertReason(
  network: EvmNetwork,
  row: TransactionRow,
  blockNumber: bigint,
  abis: Abi[],
): Promise<string> {
  try {
    await network.client.call({
      account: row.sender as Address,
      to: (row.to_address as Address | null) ?? undefined,
      data: row.input as Hex,
      value: BigInt(row.value),
      gas: row.gas_limit === null ? undefined : BigInt(row.gas_limit),
      blockNumber,
    });
    return 'execution reverted';
  } catch (error) {
    const decoded = decodeRevertReason(abis, revertDataFromError(error));
    if (decoded) return `execution reverted: ${decoded.reason}`;
    // The node's words: Nethermind puts them in the error's data ("revert: <reason>", "OutOfGas").
    const failure = executionFailureMessage(error);
    const words = failure ?? (error as Error).message;
    if (row.gas_limit !== null && /out ?of ?gas|gas required exceeds/i.test(words)) return 'out of gas';
    return failure !== undefined && /revert/i.test(failure)
      ? executionFailureAnswer(failure)
      : 'execution reverted';
  }
}
