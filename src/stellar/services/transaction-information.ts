import { Address, type rpc, TransactionBuilder } from '@stellar/stellar-sdk';
import type { Application } from '../../applications/applications.service.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';
import type { Platform } from '../../platform/platform.ts';
import { decodeLedgerOutcome, type LedgerOutcome, type Receipt } from '../engine/receipt.ts';
import {
  findApplicationTransactionByHash,
  listTransactionsByReference,
  markFinished,
} from '../engine/stellar-transactions.repository.ts';
import { type PublicStatus, publicStatus, type StellarTransactionRow } from '../engine/transaction-record.ts';
import { rpcCall } from '../network/rpc-call.ts';
import type { ContractSpec } from '../spec/contract-spec.ts';
import { describeEnvelope, type TransactionPart } from './describe-envelope.ts';
import { specForRecord, specOfContract } from './record-spec.ts';
import { stellarNetworkFor } from './resolve-network.ts';
import type { StellarContext } from './stellar-context.ts';

async function finishRecord(context: StellarContext, id: string, outcome: LedgerOutcome): Promise<void> {
  try {
    if (await markFinished(context.platform.db, id, outcome)) context.engine.watch.notify(id);
  } catch (error) {
    context.platform.logger.warn({ id, err: (error as Error).message }, 'stellar: could not finish a record');
  }
}

export type TransactionInformation = {
  network: number;
  txHash: string;
  status: PublicStatus;
  kind: string | null;
  myReference: string | null;
  transaction: TransactionPart;
  receipt: Receipt | null;
  /** The sample response's spelling of `receipt`, for clients written against it. */
  recipt: Receipt | null;
  error: string;
  errorInfo: {
    code: string;
    message: string;
    contractError: { code: number; name: string | null } | null;
  } | null;
};

/** The contract an envelope invokes, to find the spec its arguments decode with. */
function invokedContract(envelopeXdr: string, passphrase: string): string | undefined {
  const transaction = TransactionBuilder.fromXDR(envelopeXdr, passphrase);
  const operation = 'operations' in transaction ? transaction.operations[0] : undefined;
  if (operation?.type !== 'invokeHostFunction') return undefined;
  const fn = operation.func;
  return fn.switch().name === 'hostFunctionTypeInvokeContract'
    ? Address.fromScAddress(fn.invokeContract().contractAddress()).toString()
    : undefined;
}

/**
 * The spec a transaction decodes with. `known` is false when it could not be read (the network did not
 * answer): a receipt decoded without it is answered, but not stored.
 */
async function specOfTransaction(
  platform: Platform,
  network: StellarNetwork,
  row: StellarTransactionRow | undefined,
  envelopeXdr: string,
): Promise<{ spec: ContractSpec | undefined; known: boolean }> {
  const contract = row ? undefined : invokedContract(envelopeXdr, network.passphrase);
  try {
    if (row) return { spec: await specForRecord(platform, row), known: true };
    return { spec: contract ? await specOfContract(platform, network, contract) : undefined, known: true };
  } catch {
    return { spec: undefined, known: false };
  }
}

function answer(
  network: StellarNetwork,
  txHash: string,
  status: PublicStatus,
  row: StellarTransactionRow | undefined,
  transaction: TransactionPart,
  receipt: Receipt | null,
): TransactionInformation {
  const errorInfo =
    receipt?.error ??
    (row?.error_code
      ? { code: row.error_code, message: row.error_message ?? '', contractError: null }
      : null);
  return {
    network: network.networkId,
    txHash,
    status,
    kind: row?.kind ?? null,
    myReference: row?.my_reference ?? null,
    transaction,
    receipt,
    recipt: receipt,
    error: errorInfo ? errorInfo.message || errorInfo.code : '',
    errorInfo,
  };
}

/**
 * Transaction information per document 3: from the network (any transaction it holds), and from the
 * application's own record while the network does not have it yet (PENDING) or after it refused it.
 */
export async function getTransactionInformation(
  context: StellarContext,
  parameters: { application: Application; networkId: number; txHash: string },
): Promise<TransactionInformation> {
  const { platform } = context;
  const network = stellarNetworkFor(platform, parameters.application, parameters.networkId, 'network');
  const txHash = parameters.txHash.toLowerCase();
  const row = await findApplicationTransactionByHash(
    platform.db,
    parameters.application.id,
    network.networkId,
    txHash,
  );
  const fromEnvelope = async (
    envelopeXdr: string,
    status: PublicStatus,
    receiptOf: (
      spec: ContractSpec | undefined,
      specKnown: boolean,
    ) => Promise<Receipt | null> | Receipt | null,
  ) => {
    const { spec, known } = await specOfTransaction(platform, network, row, envelopeXdr);
    const transaction = describeEnvelope(envelopeXdr, network.passphrase, spec);
    return answer(network, txHash, status, row, transaction, await receiptOf(spec, known));
  };
  if (row && (row.state === 'success' || row.state === 'failed') && row.receipt && row.envelope_xdr)
    return fromEnvelope(row.envelope_xdr, publicStatus(row.state), () => row.receipt as Receipt);
  const found = await rpcCall(network, (server) => server.getTransaction(txHash));
  if (found.status === 'SUCCESS' || found.status === 'FAILED') {
    const ledger = found as rpc.Api.GetSuccessfulTransactionResponse | rpc.Api.GetFailedTransactionResponse;
    return fromEnvelope(ledger.envelopeXdr.toXDR('base64'), found.status, async (spec, specKnown) => {
      const outcome = decodeLedgerOutcome(ledger, { spec, method: row?.method ?? null });
      // The record learns it now rather than on the tracker's next look: what this answer says, the
      // record says too. Not when the spec could not be read: the record would keep a receipt without
      // the contract's types and error names for good; the tracker finishes it once it can.
      if (row && specKnown) await finishRecord(context, row.id, outcome);
      return outcome.receipt;
    });
  }
  if (row?.envelope_xdr) return fromEnvelope(row.envelope_xdr, publicStatus(row.state), () => null);
  throw new ChaingateError(
    'CG_ERR_STELLAR_UNKNOWN_TRANSACTION',
    `txHash: no transaction ${txHash} on network ${network.networkId}`,
  );
}

export type TransactionRecordSummary = {
  id: string;
  txHash: string | null;
  network: number;
  kind: string;
  status: PublicStatus;
  contractAddress: string | null;
  method: string | null;
  myReference: string | null;
  error: string | null;
  errorInfo: { code: string; message: string } | null;
  ledger: number | null;
  creationTimestamp: number;
  confirmationTimestamp: number | null;
};

function summary(row: StellarTransactionRow): TransactionRecordSummary {
  return {
    id: row.id,
    txHash: row.tx_hash,
    network: row.network_id,
    kind: row.kind,
    status: publicStatus(row.state),
    contractAddress: row.contract_address,
    method: row.method,
    myReference: row.my_reference,
    error: row.error_message,
    errorInfo: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
    ledger: row.ledger,
    creationTimestamp: new Date(row.created_at).getTime(),
    confirmationTimestamp: row.finished_at ? new Date(row.finished_at).getTime() : null,
  };
}

/** Every Stellar record of the application that carries `reference`, oldest first. */
export async function listByReference(
  context: StellarContext,
  parameters: { application: Application; reference: string },
): Promise<{ reference: string; info: TransactionRecordSummary[] }> {
  const rows = await listTransactionsByReference(
    context.platform.db,
    parameters.application.id,
    parameters.reference,
  );
  return { reference: parameters.reference, info: rows.map(summary) };
}
