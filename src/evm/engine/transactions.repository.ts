import type { Hex } from 'viem';
import type { Queryable } from '../../platform/db/database.ts';
import type { Idempotency } from '../../platform/idempotency/idempotency.ts';
import type { TransactionKind, TransactionRow } from './transaction-record.ts';

export type NewTransaction = {
  id: string;
  applicationId: string;
  chainId: number;
  kind: TransactionKind;
  sender: string;
  to: string | null;
  contractAddress: string | null;
  value: bigint;
  input: Hex;
  method: string | null;
  specId: number | null;
  myReference: string | null;
  /** The request's `Idempotency-Key`, unique per application among the records that may have gone out. */
  idempotency?: Idempotency | undefined;
};

export type SignedFields = {
  nonce: bigint;
  gasLimit: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  txHash: Hex;
  rawTx: Hex;
};

/** The first twelve columns of `evm_transactions`, in insert order. */
function newTransactionValues(tx: NewTransaction): unknown[] {
  return [
    tx.id,
    tx.applicationId,
    tx.chainId,
    tx.kind,
    tx.sender.toLowerCase(),
    tx.to?.toLowerCase() ?? null,
    tx.contractAddress?.toLowerCase() ?? null,
    tx.value.toString(),
    tx.input,
    tx.method,
    tx.specId,
    tx.myReference,
  ];
}

/**
 * Inserts signed transactions and their first attempts in one statement for any number of rows: the
 * attempts are made from the inserted rows, so each raw transaction crosses the wire once.
 */
export async function insertSignedTransactions(
  db: Queryable,
  rows: ReadonlyArray<{ tx: NewTransaction; signed: SignedFields }>,
): Promise<void> {
  if (rows.length === 0) return;
  const params: unknown[] = [];
  const tuples = rows.map(({ tx, signed }, index) => {
    const base = index * 20;
    params.push(
      ...newTransactionValues(tx),
      signed.nonce.toString(),
      signed.gasLimit.toString(),
      signed.maxFeePerGas.toString(),
      signed.maxPriorityFeePerGas.toString(),
      signed.txHash,
      signed.rawTx,
      tx.idempotency?.key ?? null,
      tx.idempotency?.fingerprint ?? null,
    );
    return `(${Array.from({ length: 20 }, (_, i) => `$${base + i + 1}`).join(', ')}, 'signed')`;
  });
  await db.query(
    `WITH inserted AS (
       INSERT INTO evm_transactions (id, application_id, chain_id, kind, sender, to_address, contract_address, value,
         input, method, spec_id, my_reference, nonce, gas_limit, max_fee_per_gas, max_priority_fee_per_gas, tx_hash,
         raw_tx, idempotency_key, idempotency_fingerprint, state)
       VALUES ${tuples.join(', ')}
       RETURNING id, tx_hash, raw_tx, max_fee_per_gas, max_priority_fee_per_gas)
     INSERT INTO evm_transaction_attempts (tx_hash, transaction_id, raw_tx, max_fee_per_gas, max_priority_fee_per_gas)
     SELECT tx_hash, id, raw_tx, max_fee_per_gas, max_priority_fee_per_gas FROM inserted
     ON CONFLICT (tx_hash) DO NOTHING`,
    params,
  );
}

async function insertAttempt(db: Queryable, transactionId: string, signed: SignedFields): Promise<void> {
  await db.query(
    `INSERT INTO evm_transaction_attempts (tx_hash, transaction_id, raw_tx, max_fee_per_gas, max_priority_fee_per_gas)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (tx_hash) DO NOTHING`,
    [
      signed.txHash,
      transactionId,
      signed.rawTx,
      signed.maxFeePerGas.toString(),
      signed.maxPriorityFeePerGas.toString(),
    ],
  );
}

/** A request that failed before anything was signed: kept so status by reference shows it. */
export async function insertFailedTransaction(
  db: Queryable,
  tx: NewTransaction,
  error: { code: string; message: string },
): Promise<void> {
  await db.query(
    `INSERT INTO evm_transactions (id, application_id, chain_id, kind, sender, to_address, contract_address, value, input,
       method, spec_id, my_reference, state, error_code, error_message)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'error', $13, $14)`,
    [...newTransactionValues(tx), error.code, error.message.slice(0, 2000)],
  );
}

/**
 * The stored signed attempt of a record, or undefined when there is no such record: after a COMMIT
 * that got no answer, whether the send was saved after all.
 */
export async function findSignedAttempt(db: Queryable, id: string): Promise<SignedFields | undefined> {
  const [row] = await db.query<{
    nonce: string;
    gas_limit: string;
    max_fee_per_gas: string;
    max_priority_fee_per_gas: string;
    tx_hash: Hex;
    raw_tx: Hex;
  }>(
    `SELECT nonce, gas_limit, max_fee_per_gas, max_priority_fee_per_gas, tx_hash, raw_tx
       FROM evm_transactions WHERE id = $1 AND raw_tx IS NOT NULL`,
    [id],
  );
  return row
    ? {
        nonce: BigInt(row.nonce),
        gasLimit: BigInt(row.gas_limit),
        maxFeePerGas: BigInt(row.max_fee_per_gas),
        maxPriorityFeePerGas: BigInt(row.max_priority_fee_per_gas),
        txHash: row.tx_hash,
        rawTx: row.raw_tx,
      }
    : undefined;
}

export async function markBroadcast(db: Queryable, id: string, accepted: boolean): Promise<void> {
  await markBroadcastMany(db, [id], accepted);
}

/**
 * Moves a signed transaction to `error` and returns its nonce to the gap pool, in one statement: a
 * store that fails between two would leave the record failed and its nonce held by nobody. Nothing went
 * out, so its idempotency key is released: a retry with the key sends anew.
 */
export async function failSignedTransaction(
  db: Queryable,
  row: { id: string; chain_id: number; sender: string; nonce: string | null },
  error: { code: string; message: string },
): Promise<void> {
  await db.query(
    `WITH failed AS (
       UPDATE evm_transactions SET state = 'error', error_code = $2, error_message = $3, idempotency_key = NULL
        WHERE id = $1 RETURNING id)
     INSERT INTO evm_nonce_gaps (chain_id, address, nonce)
     SELECT $4, $5, $6::bigint FROM failed WHERE $6::bigint IS NOT NULL
     ON CONFLICT DO NOTHING`,
    [row.id, error.code, error.message.slice(0, 2000), row.chain_id, row.sender, row.nonce],
  );
}

export async function replaceCurrentAttempt(db: Queryable, id: string, signed: SignedFields): Promise<void> {
  await db.query(
    `UPDATE evm_transactions SET tx_hash = $2, raw_tx = $3, max_fee_per_gas = $4, max_priority_fee_per_gas = $5,
            nonce = $6, gas_limit = $7
      WHERE id = $1`,
    [
      id,
      signed.txHash,
      signed.rawTx,
      signed.maxFeePerGas.toString(),
      signed.maxPriorityFeePerGas.toString(),
      signed.nonce.toString(),
      signed.gasLimit.toString(),
    ],
  );
  await insertAttempt(db, id, signed);
}

/** By any hash the transaction was ever signed with, restricted to one application. */
export async function findApplicationTransactionByHash(
  db: Queryable,
  applicationId: string,
  chainId: number,
  txHash: string,
): Promise<TransactionRow | undefined> {
  const rows = await db.query<TransactionRow>(
    `SELECT t.* FROM evm_transaction_attempts a JOIN evm_transactions t ON t.id = a.transaction_id
      WHERE a.tx_hash = $1 AND t.chain_id = $2 AND t.application_id = $3`,
    [txHash.toLowerCase(), chainId, applicationId],
  );
  return rows[0];
}

export async function listByReference(
  db: Queryable,
  applicationId: string,
  reference: string,
): Promise<TransactionRow[]> {
  return db.query<TransactionRow>(
    'SELECT * FROM evm_transactions WHERE application_id = $1 AND my_reference = $2 ORDER BY created_at, id',
    [applicationId, reference],
  );
}

/**
 * The open transactions an engine tick has something to do with: every `processing` one, `signed`
 * ones once `signedGraceMs` old (or written before this process started), and `inserted` ones whose
 * last broadcast is older than `insertedQuietMs` (younger ones are left to the block scans). With
 * `everything` (the first tick after a start) all open ones. During a burst this keeps the
 * thousands of just-sent transactions out of every tick.
 */
export async function listTransactionsToCheck(
  db: Queryable,
  chainId: number,
  options: {
    insertedQuietMs: number;
    signedGraceMs: number;
    startedAt: Date;
    everything: boolean;
    limit?: number;
  },
): Promise<TransactionRow[]> {
  return db.query<TransactionRow>(
    `SELECT * FROM evm_transactions
      WHERE chain_id = $1 AND state IN ('signed', 'inserted', 'processing')
        AND ($2
          OR state = 'processing'
          OR (state = 'signed' AND (created_at < now() - make_interval(secs => $4 / 1000.0) OR created_at < $5))
          OR (state = 'inserted'
              AND (last_broadcast_at IS NULL OR last_broadcast_at < now() - make_interval(secs => $3 / 1000.0))))
      ORDER BY created_at, nonce LIMIT $6`,
    [
      chainId,
      options.everything,
      options.insertedQuietMs,
      options.signedGraceMs,
      options.startedAt.toISOString(),
      options.limit ?? 2000,
    ],
  );
}

/** Whether any record on the network is still open (signed, inserted or processing): one index probe. */
export async function hasOpenTransactions(db: Queryable, chainId: number): Promise<boolean> {
  const rows = await db.query<{ open: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM evm_transactions
      WHERE chain_id = $1 AND state IN ('signed', 'inserted', 'processing')) AS open`,
    [chainId],
  );
  return rows[0]?.open === true;
}

export async function listAttemptHashes(db: Queryable, transactionId: string): Promise<Hex[]> {
  const rows = await db.query<{ tx_hash: Hex }>(
    'SELECT tx_hash FROM evm_transaction_attempts WHERE transaction_id = $1 ORDER BY created_at',
    [transactionId],
  );
  return rows.map((r) => r.tx_hash);
}

/** Open transactions of one sender holding nonces in [from, to), in nonce order. */
export async function listOpenBySenderBetween(
  db: Queryable,
  chainId: number,
  sender: string,
  from: bigint,
  to: bigint,
): Promise<Array<{ id: string; nonce: string; raw_tx: Hex | null }>> {
  return db.query(
    `SELECT id, nonce, raw_tx FROM evm_transactions
      WHERE chain_id = $1 AND sender = $2 AND state IN ('signed', 'inserted') AND nonce >= $3 AND nonce < $4
      ORDER BY nonce`,
    [chainId, sender, from.toString(), to.toString()],
  );
}

/**
 * A reorg replaced the blocks from `fromBlock` on: records mined there are open again (processing,
 * no block), so the tracker finds them anew or the engine puts them back in the node's pool.
 */
export async function reopenMinedFrom(db: Queryable, chainId: number, fromBlock: bigint): Promise<number> {
  const reopened = await db.query(
    `UPDATE evm_transactions
        SET state = 'processing', block_number = NULL, block_hash = NULL, confirmed_at = NULL,
            error_code = NULL, error_message = NULL
      WHERE chain_id = $1 AND block_number >= $2 AND state IN ('processing', 'confirmed', 'evmError')
      RETURNING id`,
    [chainId, fromBlock.toString()],
  );
  return reopened.length;
}

/** markBroadcast for many records in one statement. */
export async function markBroadcastMany(db: Queryable, ids: string[], accepted: boolean): Promise<void> {
  await db.query(
    `UPDATE evm_transactions
        SET state = CASE WHEN $2 AND state = 'signed' THEN 'inserted' ELSE state END,
            refused_since = CASE WHEN $2 THEN NULL ELSE refused_since END,
            broadcast_count = broadcast_count + 1, last_broadcast_at = now()
      WHERE id = ANY($1::uuid[])`,
    [ids, accepted],
  );
}

/** A pending record whose nonce an explicit-nonce request took over. */
export async function markReplaced(db: Queryable, id: string, code: string): Promise<void> {
  await db.query(
    `UPDATE evm_transactions SET state = 'error', error_code = $2, error_message = 'replaced by a transaction with the same nonce' WHERE id = $1`,
    [id, code],
  );
}

/** A deploy re-signed under another nonce creates its contract at another address. */
export async function setContractAddress(db: Queryable, id: string, address: string): Promise<void> {
  await db.query('UPDATE evm_transactions SET contract_address = $2 WHERE id = $1', [
    id,
    address.toLowerCase(),
  ]);
}

/** A record whose block is no longer canonical: open again, without a block. */
export async function reopenRecord(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE evm_transactions SET state = 'processing', block_number = NULL, block_hash = NULL, confirmed_at = NULL,
            error_code = NULL, error_message = NULL
      WHERE id = $1`,
    [id],
  );
}

/** The transaction holding an idempotency key: what a repeated request is compared with and answered. */
export type KeyedTransaction = {
  id: string;
  fingerprint: string;
  txHash: Hex;
  nonce: bigint;
  contractAddress: string | null;
};

/** The record holding an application's idempotency key, if any. */
export async function findByIdempotencyKey(
  db: Queryable,
  applicationId: string,
  idempotencyKey: string,
): Promise<KeyedTransaction | undefined> {
  const [row] = await db.query<{
    id: string;
    idempotency_fingerprint: string;
    tx_hash: Hex;
    nonce: string;
    contract_address: string | null;
  }>(
    `SELECT id, idempotency_fingerprint, tx_hash, nonce::text AS nonce, contract_address
       FROM evm_transactions WHERE application_id = $1 AND idempotency_key = $2`,
    [applicationId, idempotencyKey],
  );
  return row
    ? {
        id: row.id,
        fingerprint: row.idempotency_fingerprint,
        txHash: row.tx_hash,
        nonce: BigInt(row.nonce),
        contractAddress: row.contract_address,
      }
    : undefined;
}

/** Which of `keys` an application's records hold already. */
export async function heldIdempotencyKeys(
  db: Queryable,
  applicationId: string,
  keys: readonly string[],
): Promise<Set<string>> {
  const rows = await db.query<{ idempotency_key: string }>(
    'SELECT idempotency_key FROM evm_transactions WHERE application_id = $1 AND idempotency_key = ANY($2::text[])',
    [applicationId, keys],
  );
  return new Set(rows.map((row) => row.idempotency_key));
}
