import type { Abi, Hex } from 'viem';
import type { EvmNetwork } from '../../platform/chains/evm-networks.ts';
import { decodeCallInput, decodeConstructorArgs } from '../abi/decode-call-input.ts';
import { decodeReceiptLogs } from '../abi/decode-logs.ts';
import { toJsonValue } from '../abi/to-json-value.ts';
import type { TransactionRow } from '../engine/transaction-record.ts';

type InputData = {
  function: string;
  functionId: string;
  inputs: Array<{ name: string; type: string; value: unknown }>;
} | null;

function decodeInput(abis: Abi[], input: Hex, isDeploy: boolean, bytecodes: Array<Hex | null>): InputData {
  if (isDeploy) {
    for (const [index, abi] of abis.entries()) {
      const bytecode = bytecodes[index];
      if (!bytecode) continue;
      const args = decodeConstructorArgs(abi, bytecode, input);
      if (args) return { function: 'constructor', functionId: '0x', inputs: args };
    }
    return null;
  }
  for (const abi of abis) {
    const decoded = decodeCallInput(abi, input);
    if (decoded) return decoded;
  }
  return null;
}

/**
 * The spec's transaction information, read from the chain; input and logs decoded with every ABI
 * that may apply (the given spec, the spec it was sent or deployed with, the standard contracts).
 */
export async function readTransactionInformation(
  network: EvmNetwork,
  hash: Hex,
  abis: Abi[],
  bytecodes: Array<Hex | null>,
  record: TransactionRow | undefined,
) {
  const tx = await network.client.getTransaction({ hash }).catch(() => null);
  if (!tx) return undefined;
  const receipt = await network.client.getTransactionReceipt({ hash }).catch(() => null);
  const block = receipt
    ? await network.client.getBlock({ blockHash: receipt.blockHash }).catch(() => null)
    : null;
  const reverted = receipt?.status === 'reverted';
  const errorInfo = reverted
    ? {
        code: record?.error_code ?? 'ERROR_EVM_REVERTED',
        message: record?.error_message ?? 'execution reverted',
      }
    : record?.state === 'error' && record.error_code
      ? { code: record.error_code, message: record.error_message ?? '' }
      : null;
  return {
    network: network.chainId,
    transaction: {
      hash: tx.hash,
      value: toJsonValue(tx.value),
      gas: toJsonValue(tx.gas),
      gasPrice: toJsonValue(tx.gasPrice ?? tx.maxFeePerGas ?? 0n),
      gasTipCap: toJsonValue(tx.maxPriorityFeePerGas ?? tx.gasPrice ?? 0n),
      nonce: tx.nonce,
      from: tx.from,
      to: tx.to ?? null,
      pending: receipt === null,
      inputData: decodeInput(abis, tx.input, tx.to === null, bytecodes),
    },
    receipt: receipt
      ? {
          hash: receipt.transactionHash,
          blockHash: receipt.blockHash,
          blockNumber: Number(receipt.blockNumber),
          gasPrice: toJsonValue(receipt.effectiveGasPrice),
          gasUsed: toJsonValue(receipt.gasUsed),
          cumulativeGasUsed: toJsonValue(receipt.cumulativeGasUsed),
          tokenId: null,
          from: receipt.from,
          to: receipt.to ?? null,
          contractAddress: receipt.contractAddress ?? null,
          blockTime: block ? new Date(Number(block.timestamp) * 1000).toISOString() : '',
          status: receipt.status === 'success' ? 1 : 0,
          logs: decodeReceiptLogs(
            abis,
            receipt.logs.map((log) => ({
              address: log.address,
              topics: [...log.topics] as Hex[],
              data: log.data,
            })),
          ),
          errorMessage: reverted ? (errorInfo?.message ?? 'execution reverted') : '',
        }
      : null,
    error: errorInfo !== null,
    errorInfo,
  };
}
