import type { TransactionRow } from '../engine/transaction-record.ts';
import { publicStatus } from '../engine/transaction-record.ts';

/** The spec's transaction status record. */
export function toStatusRecord(row: TransactionRow) {
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
