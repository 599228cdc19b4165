import type { Hex } from 'viem';
import type { Queryable } from '../../platform/db/database.ts';
import type { TransactionRow, TransactionState } from './transaction-record.ts';

/** What a receipt says about one record. */
export type MinedRecord = {
  id: string;
  sender: string;
  nonce: string | null;
  state: TransactionState;
  txHash: Hex;
  blockNumber: bigint;
  blockHash: Hex;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  error: { code: string; message: string } | null;
};

export async function findTransactionsByIds(db: Queryable, ids: string[]): Promise<TransactionRow[]> {
  return db.query<TransactionRow>('SELECT * FROM evm_transactions WHERE id = ANY($1::uuid[])', [ids]);
}

/** The few columns a receipt is applied with: whether it changes the record, and its nonce. */
export type MinedCandidate = Pick<TransactionRow, 'id' | 'state' | 'block_hash' | 'sender' | 'nonce'> & {
  /** The attempt's hash the receipt is for (lower case). */
  attempt_hash: Hex;
};

/**
 * The records whose attempts have these hashes, with only the columns applying a receipt needs: one
 * statement per block, and none of the raw bytes, calldata and dates a whole row carries.
 */
export async function findMinedCandidates(
  db: Queryable,
  hashes: readonly string[],
): Promise<MinedCandidate[]> {
  if (hashes.length === 0) return [];
  return db.query<MinedCandidate>(
    `SELECT a.tx_hash AS attempt_hash, t.id, t.state, t.block_hash, t.sender, t.nonce
       FROM evm_transaction_attempts a JOIN evm_transactions t ON t.id = a.transaction_id
      WHERE a.tx_hash = ANY($1::text[])`,
    [hashes.map((hash) => hash.toLowerCase())],
  );
}

/**
 * Stores the receipts of many records in three statements (a block's worth at once), in the
 * caller's transaction: other live records holding the same nonce lost a replacement race, the
 * nonces leave the gap pool, and each record gets its block, gas and state.
 */
export async function recordMinedBatch(
  tx: Queryable,
  chainId: number,
  records: MinedRecord[],
  replacedCode: string,
): Promise<void> {
  const withNonce = records.filter((record) => record.nonce !== null);
  if (withNonce.length > 0) {
    const senders = withNonce.map((record) => record.sender);
    const nonces = withNonce.map((record) => record.nonce);
    const ids = withNonce.map((record) => record.id);
    await tx.query(
      `UPDATE evm_transactions t
          SET state = 'error', error_code = $5, error_message = 'replaced by a transaction with the same nonce'
         FROM unnest($2::text[], $3::bigint[], $4::uuid[]) AS mined(sender, nonce, id)
        WHERE t.chain_id = $1 AND t.sender = mined.sender AND t.nonce = mined.nonce AND t.id <> mined.id
          AND t.state <> 'error'`,
      [chainId, senders, nonces, ids, replacedCode],
    );
    await tx.query(
      `DELETE FROM evm_nonce_gaps g USING unnest($2::text[], $3::bigint[]) AS mined(sender, nonce)
        WHERE g.chain_id = $1 AND g.address = mined.sender AND g.nonce = mined.nonce`,
      [chainId, senders, nonces],
    );
  }
  await tx.query(
    `UPDATE evm_transactions t
        SET state = m.state, tx_hash = m.tx_hash, block_number = m.block_number, block_hash = m.block_hash,
            gas_used = m.gas_used, effective_gas_price = m.effective_gas_price,
            error_code = m.error_code, error_message = m.error_message, refused_since = NULL,
            confirmed_at = CASE WHEN m.state IN ('confirmed', 'evmError') THEN COALESCE(t.confirmed_at, now()) ELSE NULL END,
            raw_tx = COALESCE((SELECT a.raw_tx FROM evm_transaction_attempts a WHERE a.tx_hash = m.tx_hash), t.raw_tx)
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::numeric[], $7::numeric[],
                   $8::text[], $9::text[])
            AS m(id, state, tx_hash, block_number, block_hash, gas_used, effective_gas_price, error_code, error_message)
      WHERE t.id = m.id`,
    [
      records.map((r) => r.id),
      records.map((r) => r.state),
      records.map((r) => r.txHash),
      records.map((r) => r.blockNumber.toString()),
      records.map((r) => r.blockHash),
      records.map((r) => r.gasUsed.toString()),
      records.map((r) => r.effectiveGasPrice.toString()),
      records.map((r) => r.error?.code ?? null),
      records.map((r) => r.error?.message ?? null),
    ],
  );
}
