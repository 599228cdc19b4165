import type { Abi, Address, Hex } from 'viem';
import { quote } from '../../platform/errors/chaingate-error.ts';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';
import {
  executionFailureMessage,
  isNodeTransportFailure,
  isRateLimited,
  nodeRpcError,
  transportFailureWords,
} from '../../platform/networks/node-failure.ts';
import { decodeRevertReason, executionFailureAnswer, revertDataFromError } from '../abi/decode-revert.ts';
import type { TransactionRow } from './transaction-record.ts';

/**
 * Why a replay gave no reason although the node did not run it to a revert: it failed or refused the
 * call (a timeout, a gateway's 5xx, its rate limit, a pruned state). Undefined for anything else.
 */
function replayFailureWords(error: unknown): string | undefined {
  if (isRateLimited(error)) return 'the node refused to replay the call for its rate limit';
  if (isNodeTransportFailure(error))
    return `the node ${transportFailureWords(error)} when the call was replayed`;
  const said = nodeRpcError(error)?.message;
  return said === undefined ? undefined : `the node answered "${quote(said)}" when the call was replayed`;
}

/**
 * Why a mined transaction reverted: receipts carry no reason, so the call is replayed at its block
 * and the revert data decoded with the ABIs that may apply. The receipt alone says that it reverted:
 * a replay the node failed leaves the reason unknown, said so, and does not hold the record back.
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
    if (failure === undefined) {
      const unknown = replayFailureWords(error);
      if (unknown) return `execution reverted (its reason is unknown: ${unknown})`;
    }
    return failure !== undefined && /revert/i.test(failure)
      ? executionFailureAnswer(failure)
      : 'execution reverted';
  }
}
