import {
  type Abi,
  BlockNotFoundError,
  type Hex,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import type { Application } from '../../applications/applications.service.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';
import { noneAsNull } from '../../platform/networks/node-failure.ts';
import { decodeCallInput, decodeConstructorArgs } from '../abi/decode-call-input.ts';
import { decodeReceiptLogs } from '../abi/decode-logs.ts';
import { loadStandardContracts } from '../contract-library/standard-contracts.ts';
import { resolveSpec } from '../contracts/contract-abi.ts';
import { findDeployedContract } from '../contracts/evm-contracts.repository.ts';
import type { TransactionRow } from '../engine/transaction-record.ts';
import { findApplicationTransactionByHash } from '../engine/transactions.repository.ts';
import type { EvmContext } from './evm-context.ts';
import { networkFor } from './resolve-network.ts';

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

export type GetTransactionInformationParameters = {
  application: Application;
  chainId: number;
  txHash: Hex;
  contractSpecsId?: number | undefined;
};

/**
 * The spec's transaction information, read from the chain; input and logs decoded with every ABI the
 * caller may use that can apply: the given spec, the spec it sent or deployed with through chaingate,
 * the spec of the contract it called when the caller can see it, and the standard contracts.
 */
export async function getTransactionInformation(
  context: EvmContext,
  parameters: GetTransactionInformationParameters,
) {
  const { db } = context.platform;
  const { application } = parameters;
  const network = networkFor(context.platform, application, parameters.chainId, 'network');
  const hash = parameters.txHash.toLowerCase() as Hex;
  const record = await findApplicationTransactionByHash(db, application.id, network.chainId, hash);
  const abis: Abi[] = [];
  const bytecodes: Array<Hex | null> = [];
  const addSpec = async (id: number) => {
    const { spec, abi } = await resolveSpec(db, application.id, id);
    abis.push(abi);
    bytecodes.push((spec.bytecode as Hex | null) ?? null);
  };
  if (parameters.contractSpecsId !== undefined) await addSpec(parameters.contractSpecsId);
  if (record?.spec_id) await addSpec(record.spec_id).catch(() => {});
  if (record?.to_address) {
    const deployed = await findDeployedContract(db, network.chainId, record.to_address);
    if (deployed) await addSpec(deployed.spec_id).catch(() => {});
  }
  for (const standard of loadStandardContracts()) {
    abis.push(standard.abi);
    bytecodes.push(standard.bytecode);
  }
  const info = await readTransactionInformation(network, hash, abis, bytecodes, record);
  if (!info) {
    throw new ChaingateError(
      'CG_ERR_UNKNOWN_TRANSACTION',
      `transaction ${hash} not found on network ${network.chainId}`,
    );
  }
  return info;
}

async function readTransactionInformation(
  network: EvmNetwork,
  hash: Hex,
  abis: Abi[],
  bytecodes: Array<Hex | null>,
  record: TransactionRow | undefined,
) {
  // The node's "there is none" is null; a call that failed is thrown, and answered 503 (it used to read
  // as "not found", a 404 for a transaction the node merely did not answer about).
  const tx = await network.client.getTransaction({ hash }).catch(noneAsNull(TransactionNotFoundError));
  if (!tx) return undefined;
  const receipt = await network.client
    .getTransactionReceipt({ hash })
    .catch(noneAsNull(TransactionReceiptNotFoundError));
  const block = receipt
    ? await network.client.getBlock({ blockHash: receipt.blockHash }).catch(noneAsNull(BlockNotFoundError))
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
      value: tx.value,
      valueWei: tx.value.toString(),
      gas: tx.gas,
      gasPrice: tx.gasPrice ?? tx.maxFeePerGas ?? 0n,
      gasTipCap: tx.maxPriorityFeePerGas ?? tx.gasPrice ?? 0n,
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
          gasPrice: receipt.effectiveGasPrice,
          gasUsed: receipt.gasUsed,
          cumulativeGasUsed: receipt.cumulativeGasUsed,
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
