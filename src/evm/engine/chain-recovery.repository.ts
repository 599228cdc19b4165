import type { Queryable } from '../../platform/db/database.ts';
import type { TransactionRow } from './transaction-record.ts';

/** Most nonces one recovery pass fills for a sender: a bound, should the store and chain be far apart. */
const MAX_FILLED_NONCES = 10_000;

/** Senders of a network worth reconciling: every one with a nonce row, or those active since `since`. */
export async function listSendersToReconcile(
  db: Queryable,
  chainId: number,
  since: Date | undefined,
): Promise<Array<{ address: string; next_nonce: string }>> {
  if (since === undefined) {
    return db.query('SELECT address, next_nonce FROM evm_nonces WHERE chain_id = $1 AND next_nonce > 0', [
      chainId,
    ]);
  }
  return db.query(
    `SELECT n.address, n.next_nonce FROM evm_nonces n
      WHERE n.chain_id = $1 AND n.next_nonce > 0 AND EXISTS (
        SELECT 1 FROM evm_transactions t WHERE t.chain_id = n.chain_id AND t.sender = n.address
          AND (t.created_at > $2 OR t.confirmed_at > $2 OR t.state IN ('signed', 'inserted', 'processing')))`,
    [chainId, since.toISOString()],
  );
}

/**
 * Records marked mined whose nonce the chain has not reached: the chain no longer has them (a mined
 * transaction raises its sender's nonce past its own). They are open again, without a block.
 */
export async function reopenMinedFromNonce(
  db: Queryable,
  chainId: number,
  sender: string,
  chainNonce: number,
): Promise<number> {
  const rows = await db.query(
    `UPDATE evm_transactions
        SET state = 'processing', block_number = NULL, block_hash = NULL, confirmed_at = NULL,
            error_code = NULL, error_message = NULL
      WHERE chain_id = $1 AND sender = $2 AND nonce >= $3 AND block_number IS NOT NULL
        AND state IN ('processing', 'confirmed', 'evmError')
      RETURNING id`,
    [chainId, sender, chainNonce],
  );
  return rows.length;
}

/** Nonces from `chainNonce` on that no live record holds and no gap row names go back to the gaps. */
export async function addMissingGaps(
  db: Queryable,
  chainId: number,
  sender: string,
  chainNonce: number,
): Promise<number> {
  const rows = await db.query(
    `INSERT INTO evm_nonce_gaps (chain_id, address, nonce)
     SELECT $1, $2, n FROM evm_nonces r, generate_series($3::bigint, LEAST(r.next_nonce, $3::bigint + $4) - 1) AS n
      WHERE r.chain_id = $1 AND r.address = $2
        AND NOT EXISTS (SELECT 1 FROM evm_transactions t
                         WHERE t.chain_id = $1 AND t.sender = $2 AND t.nonce = n AND t.state <> 'error')
     ON CONFLICT DO NOTHING RETURNING nonce`,
    [chainId, sender, chainNonce, MAX_FILLED_NONCES],
  );
  return rows.length;
}

/**
 * Live records of a sender the node lacks, in nonce order: those from its pool's nonce on, and those
 * that lost their block (from the chain's nonce on). What the chain must be given again.
 */
export async function listLiveFromNonce(
  db: Queryable,
  chainId: number,
  sender: string,
  chainNonce: number,
  poolNonce: number,
  limit: number,
): Promise<TransactionRow[]> {
  return db.query<TransactionRow>(
    `SELECT * FROM evm_transactions
      WHERE chain_id = $1 AND sender = $2 AND nonce >= $3
        AND (state IN ('signed', 'inserted') AND nonce >= $4 OR state = 'processing' AND block_number IS NULL)
      ORDER BY nonce LIMIT $5`,
    [chainId, sender, chainNonce, poolNonce, limit],
  );
}
