import type { Application } from '../../applications/applications.service.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { publicStatus, type TransactionRow } from '../engine/transaction-record.ts';
import { findApplicationTransactionByHash, listByReference } from '../engine/transactions.repository.ts';
import type { EvmContext } from './evm-context.ts';
import { networkFor } from './resolve-network.ts';

/** The spec's transaction status record. */
function toStatusRecord(row: TransactionRow) {
  return {
    id: row.id,
    txHash: row.tx_hash,
    blockchainNetwork: row.chain_id,
    status: publicStatus(row.state),
    error: row.error_message ?? null,
    errorInfo: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
    nonce: row.nonce === null ? null : Number(row.nonce),
    myReference: row.my_reference,
    creationTimestamp: new Date(row.created_at).getTime(),
    ...(row.confirmed_at ? { confirmationTimestamp: new Date(row.confirmed_at).getTime() } : {}),
  };
}

/** The platform status of a transaction the application sent, by any hash it was signed with. */
export async function getTransactionStatus(
  context: EvmContext,
  parameters: { application: Application; chainId: number; txHash: string },
) {
  const network = networkFor(context.platform, parameters.application, parameters.chainId, 'network');
  const row = await findApplicationTransactionByHash(
    context.platform.db,
    parameters.application.id,
    network.chainId,
    parameters.txHash,
  );
  if (!row) {
    throw new ChaingateError(
      'CG_ERR_UNKNOWN_TRANSACTION',
      `no transaction ${parameters.txHash} of this application on network ${network.chainId}`,
    );
  }
  return toStatusRecord(row);
}

/** Every record of the application carrying `myReference`, oldest first. */
export async function listTransactionsByReference(
  context: EvmContext,
  parameters: { application: Application; reference: string },
) {
  const rows = await listByReference(context.platform.db, parameters.application.id, parameters.reference);
  return { reference: parameters.reference, info: rows.map(toStatusRecord) };
}
