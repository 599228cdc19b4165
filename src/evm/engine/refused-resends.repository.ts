import type { Queryable } from '../../platform/db/database.ts';

// A stored transaction the node refuses again, in words that name no passing cause: when that began
// (`refused_since`, migration 0012), and the failing of one refused for long enough.

/**
 * A re-send the node refused in words that name no passing cause: counted as an attempt, and the time
 * of the first such refusal kept (the store's clock), from which the engine may give up on it.
 */
export async function markRefused(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE evm_transactions
        SET refused_since = COALESCE(refused_since, now()),
            broadcast_count = broadcast_count + 1, last_broadcast_at = now()
      WHERE id = $1`,
    [id],
  );
}

/** A node holds the bytes ("already known"): whatever refused them before, they are not refused now. */
export async function clearRefusal(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE evm_transactions SET refused_since = NULL WHERE id = $1', [id]);
}

/**
 * Fails a live record as `failSignedTransaction` does, but only once the node has refused it for at
 * least `afterSeconds` (by the store's clock, as `refused_since` is). Whether it was failed.
 */
export async function failLongRefused(
  db: Queryable,
  row: { id: string; chain_id: number; sender: string; nonce: string | null },
  error: { code: string; message: string },
  afterSeconds: number,
): Promise<boolean> {
  const failed = await db.query<{ id: string }>(
    `WITH failed AS (
       UPDATE evm_transactions SET state = 'error', error_code = $2, error_message = $3, idempotency_key = NULL
        WHERE id = $1 AND state IN ('signed', 'inserted', 'processing')
          AND refused_since <= now() - make_interval(secs => $7::float8)
        RETURNING id),
     gap AS (
       INSERT INTO evm_nonce_gaps (chain_id, address, nonce)
       SELECT $4, $5, $6::bigint FROM failed WHERE $6::bigint IS NOT NULL
       ON CONFLICT DO NOTHING)
     SELECT id FROM failed`,
    [row.id, error.code, error.message.slice(0, 2000), row.chain_id, row.sender, row.nonce, afterSeconds],
  );
  return failed.length > 0;
}
