import type { Queryable } from '../../platform/db/database.ts';

/**
 * Creates the nonce row of (chain, address) from the chain's pending nonce, once. Later calls leave
 * it alone: from then on the store, not the node, is the source of truth.
 */
export async function ensureNonceRow(
  db: Queryable,
  chainId: number,
  address: string,
  chainNonce: number,
): Promise<void> {
  await db.query(
    'INSERT INTO evm_nonces (chain_id, address, next_nonce) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [chainId, address.toLowerCase(), chainNonce],
  );
}

/**
 * Allocates a nonce inside the caller's transaction: the smallest gap left by a failed send first,
 * else the next nonce. The row lock on `evm_nonces` (or the gap row) is held until the caller commits,
 * so two processes on one PostgreSQL never get the same nonce.
 */
export async function allocateNonce(tx: Queryable, chainId: number, address: string): Promise<bigint> {
  const sender = address.toLowerCase();
  const gap = await tx.query<{ nonce: string }>(
    `DELETE FROM evm_nonce_gaps WHERE (chain_id, address, nonce) IN (
       SELECT chain_id, address, nonce FROM evm_nonce_gaps WHERE chain_id = $1 AND address = $2
        ORDER BY nonce LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING nonce`,
    [chainId, sender],
  );
  if (gap[0]) return BigInt(gap[0].nonce);
  const next = await tx.query<{ nonce: string }>(
    'UPDATE evm_nonces SET next_nonce = next_nonce + 1 WHERE chain_id = $1 AND address = $2 RETURNING next_nonce - 1 AS nonce',
    [chainId, sender],
  );
  if (!next[0]) throw new Error(`no nonce row for ${sender} on chain ${chainId}`);
  return BigInt(next[0].nonce);
}

/**
 * Allocates `count` nonces at once inside the caller's transaction (gaps first, then a range), for a
 * group of sends from one sender committed together. One statement: the gaps it takes and the range
 * it reserves for the rest come back together. The nonce row is locked even when gaps cover the whole
 * group, as a group of one sender is serialised anyway.
 */
export async function allocateNonces(
  tx: Queryable,
  chainId: number,
  address: string,
  count: number,
): Promise<bigint[]> {
  const sender = address.toLowerCase();
  const [row] = await tx.query<{ gaps: string[] | null; first: string | null; rest: number }>(
    `WITH gaps AS (
       DELETE FROM evm_nonce_gaps WHERE (chain_id, address, nonce) IN (
         SELECT chain_id, address, nonce FROM evm_nonce_gaps WHERE chain_id = $1 AND address = $2
          ORDER BY nonce LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING nonce),
     wanted AS (SELECT $3::int - (SELECT count(*) FROM gaps)::int AS rest),
     range AS (
       UPDATE evm_nonces SET next_nonce = next_nonce + (SELECT rest FROM wanted)
        WHERE chain_id = $1 AND address = $2
       RETURNING next_nonce - (SELECT rest FROM wanted) AS first)
     SELECT (SELECT array_agg(nonce::text ORDER BY nonce) FROM gaps) AS gaps,
            (SELECT first::text FROM range) AS first,
            (SELECT rest FROM wanted) AS rest`,
    [chainId, sender, count],
  );
  if (!row || row.first === null) throw new Error(`no nonce row for ${sender} on chain ${chainId}`);
  const nonces = (row.gaps ?? []).map((gap) => BigInt(gap));
  const first = BigInt(row.first);
  for (let i = 0n; i < BigInt(row.rest); i++) nonces.push(first + i);
  return nonces;
}

/** After the node said "nonce too low": jump forward to the chain's pending nonce, never back. */
export async function resyncNonce(
  db: Queryable,
  chainId: number,
  address: string,
  chainNonce: number,
): Promise<void> {
  await db.query(
    'UPDATE evm_nonces SET next_nonce = GREATEST(next_nonce, $3) WHERE chain_id = $1 AND address = $2',
    [chainId, address.toLowerCase(), chainNonce],
  );
  await db.query('DELETE FROM evm_nonce_gaps WHERE chain_id = $1 AND address = $2 AND nonce < $3', [
    chainId,
    address.toLowerCase(),
    chainNonce,
  ]);
}

export type NonceGap = { chain_id: number; address: string; nonce: string; created_at: Date };

export async function listOldGaps(db: Queryable, chainId: number, olderThanMs: number): Promise<NonceGap[]> {
  return db.query<NonceGap>(
    `SELECT * FROM evm_nonce_gaps WHERE chain_id = $1 AND created_at < now() - ($2::text || ' milliseconds')::interval
      ORDER BY address, nonce`,
    [chainId, String(olderThanMs)],
  );
}

/** Claims a gap for filling; false when another process claimed it first. */
export async function claimGap(db: Queryable, gap: NonceGap): Promise<boolean> {
  const rows = await db.query(
    'DELETE FROM evm_nonce_gaps WHERE chain_id = $1 AND address = $2 AND nonce = $3 RETURNING nonce',
    [gap.chain_id, gap.address, gap.nonce],
  );
  return rows.length === 1;
}

/** The live (not failed) record holding a nonce of a sender, locked for the caller's transaction. */
export async function findLiveNonceHolder(
  tx: Queryable,
  chainId: number,
  sender: string,
  nonce: bigint,
): Promise<{ id: string; state: string } | undefined> {
  const rows = await tx.query<{ id: string; state: string }>(
    `SELECT id, state FROM evm_transactions WHERE chain_id = $1 AND sender = $2 AND nonce = $3 AND state <> 'error' FOR UPDATE`,
    [chainId, sender, nonce.toString()],
  );
  return rows[0];
}

/** Takes one given nonce out of the gap pool; false when it is not a gap. */
export async function takeGap(
  tx: Queryable,
  chainId: number,
  sender: string,
  nonce: bigint,
): Promise<boolean> {
  const rows = await tx.query(
    'DELETE FROM evm_nonce_gaps WHERE chain_id = $1 AND address = $2 AND nonce = $3 RETURNING nonce',
    [chainId, sender, nonce.toString()],
  );
  return rows.length === 1;
}

/**
 * Advances the sender's next nonce past `nonce` if `nonce` is the next one; answers the next nonce as
 * it was (undefined without a row), so the caller can tell.
 */
export async function takeNextNonceIf(
  tx: Queryable,
  chainId: number,
  sender: string,
  nonce: bigint,
): Promise<bigint | undefined> {
  const rows = await tx.query<{ next_nonce: string }>(
    'SELECT next_nonce FROM evm_nonces WHERE chain_id = $1 AND address = $2 FOR UPDATE',
    [chainId, sender],
  );
  const next = rows[0] ? BigInt(rows[0].next_nonce) : undefined;
  if (next === nonce) {
    await tx.query('UPDATE evm_nonces SET next_nonce = next_nonce + 1 WHERE chain_id = $1 AND address = $2', [
      chainId,
      sender,
    ]);
  }
  return next;
}

/**
 * The highest fees ever signed for a nonce of a sender (failed records included): a filler must beat
 * them to replace a transaction a node may still hold (one whose broadcast timed out, say).
 */
export async function highestFeesAtNonce(
  db: Queryable,
  chainId: number,
  sender: string,
  nonce: string,
): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | undefined> {
  const rows = await db.query<{ max_fee: string | null; max_tip: string | null }>(
    `SELECT max(a.max_fee_per_gas) AS max_fee, max(a.max_priority_fee_per_gas) AS max_tip
       FROM evm_transactions t JOIN evm_transaction_attempts a ON a.transaction_id = t.id
      WHERE t.chain_id = $1 AND t.sender = $2 AND t.nonce = $3`,
    [chainId, sender, nonce],
  );
  const row = rows[0];
  if (!row?.max_fee || !row.max_tip) return undefined;
  return { maxFeePerGas: BigInt(row.max_fee), maxPriorityFeePerGas: BigInt(row.max_tip) };
}
