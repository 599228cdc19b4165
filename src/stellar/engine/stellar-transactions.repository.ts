import type { Queryable } from '../../platform/db/database.ts';
import type { Idempotency } from '../../platform/idempotency/idempotency.ts';
import { stringifyLosslessJson } from '../../platform/json/lossless-json.ts';
import type { SignedEnvelope } from './prepared-transaction.ts';
import type { StellarTransactionKind, StellarTransactionRow } from './transaction-record.ts';

export type NewStellarTransaction = {
  id: string;
  applicationId: string;
  networkId: number;
  kind: StellarTransactionKind;
  source: string;
  contractAddress: string | null;
  method: string | null;
  specId: number | null;
  operationXdr: string;
  sorobanDataXdr: string | null;
  inclusionFee: bigint;
  myReference: string | null;
  /** The request's idempotency key, on the record of the request's own transaction. */
  idempotency?: Idempotency | undefined;
};

/** The write-ahead step: records with their signed envelopes, before anything is submitted. */
export async function insertSignedTransactions(
  tx: Queryable,
  rows: ReadonlyArray<{ record: NewStellarTransaction; signed: SignedEnvelope }>,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = 19;
  const values: unknown[] = [];
  const tuples = rows.map(({ record, signed }, index) => {
    values.push(
      record.id,
      record.applicationId,
      record.networkId,
      record.kind,
      record.source,
      record.contractAddress,
      record.method,
      record.specId,
      record.operationXdr,
      record.sorobanDataXdr,
      record.inclusionFee.toString(),
      signed.sequence.toString(),
      signed.envelopeXdr,
      signed.txHash,
      signed.validUntil,
      record.myReference,
      record.idempotency?.key ?? null,
      record.idempotency?.fingerprint ?? null,
      'signed',
    );
    const base = index * columns;
    return `(${Array.from({ length: columns }, (_, column) => `$${base + column + 1}`).join(', ')})`;
  });
  await tx.query(
    `INSERT INTO stellar_transactions (id, application_id, network_id, kind, source, contract_address, method,
       spec_id, operation_xdr, soroban_data_xdr, inclusion_fee, sequence, envelope_xdr, tx_hash, valid_until,
       my_reference, idempotency_key, idempotency_fingerprint, state)
     VALUES ${tuples.join(', ')}`,
    values,
  );
}

/** Gives records new envelopes (new sequence numbers); the old numbers are released first. */
export async function replaceEnvelopes(
  tx: Queryable,
  rows: ReadonlyArray<{ id: string; signed: SignedEnvelope }>,
): Promise<void> {
  if (rows.length === 0) return;
  await tx.query('UPDATE stellar_transactions SET sequence = NULL WHERE id = ANY($1::uuid[])', [
    rows.map((row) => row.id),
  ]);
  for (const { id, signed } of rows) {
    await tx.query(
      `UPDATE stellar_transactions SET sequence = $2, envelope_xdr = $3, tx_hash = $4, valid_until = $5, state = 'signed'
       WHERE id = $1`,
      [id, signed.sequence.toString(), signed.envelopeXdr, signed.txHash, signed.validUntil],
    );
  }
}

/** The highest sequence number a live (not yet finished) record of the account holds, but `exclude`. */
export async function maxOpenSequence(
  tx: Queryable,
  networkId: number,
  source: string,
  exclude: readonly string[],
): Promise<bigint | undefined> {
  const rows = await tx.query<{ max: string | null }>(
    `SELECT max(sequence) AS max FROM stellar_transactions
     WHERE network_id = $1 AND source = $2 AND state IN ('signed', 'pending') AND NOT (id = ANY($3::uuid[]))`,
    [networkId, source, exclude],
  );
  const max = rows[0]?.max;
  return max === null || max === undefined ? undefined : BigInt(max);
}

/** The network accepted these envelopes. */
export async function markSubmitted(db: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `UPDATE stellar_transactions SET state = 'pending', submit_count = submit_count + 1, last_submitted_at = now()
     WHERE id = ANY($1::uuid[]) AND state IN ('signed', 'pending')`,
    [ids],
  );
}

/**
 * Sent without an answer: the network may hold them or not. They stay `signed`, counted as sent, and
 * the tracker submits the same envelopes again until the network has them or they expire.
 */
export async function markUnanswered(db: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `UPDATE stellar_transactions SET submit_count = submit_count + 1, last_submitted_at = now()
     WHERE id = ANY($1::uuid[]) AND state = 'signed'`,
    [ids],
  );
}

/**
 * Open records of `source` whose sequence numbers lie strictly between `after` and `before`, in
 * sequence order, but `exclude`: the ones a refused number may be waiting for.
 */
export async function listOpenBySourceBetween(
  db: Queryable,
  networkId: number,
  source: string,
  after: bigint,
  before: bigint,
  exclude: readonly string[],
): Promise<StellarTransactionRow[]> {
  return db.query<StellarTransactionRow>(
    `SELECT * FROM stellar_transactions
     WHERE network_id = $1 AND source = $2 AND state IN ('signed', 'pending') AND sequence > $3 AND sequence < $4
       AND envelope_xdr IS NOT NULL AND NOT (id = ANY($5::uuid[]))
     ORDER BY sequence`,
    [networkId, source, after.toString(), before.toString(), exclude],
  );
}

/**
 * Given up before any ledger: refused by the network, or never sent; its sequence number is free again,
 * and its idempotency key too (nothing was spent: a retry with the key submits anew).
 */
export async function markRefused(
  db: Queryable,
  id: string,
  error: { code: string; message: string },
): Promise<void> {
  await db.query(
    `UPDATE stellar_transactions SET state = 'error', error_code = $2, error_message = $3, finished_at = now(),
       idempotency_key = NULL
     WHERE id = $1 AND state IN ('signed', 'pending')`,
    [id, error.code, error.message],
  );
}

/**
 * A sent transaction the network did not answer for, as versions before 2026-11-25 recorded it: error,
 * yet it may land until its envelope expires. (Such a record is now kept `signed`: `markUnanswered`.)
 */
export const UNCERTAIN_CODE = 'CG_ERR_STELLAR_UNREACHABLE';

/**
 * What the tracker follows, in one statement (it runs every tick): the open records, by application
 * and sequence, then the ones whose submission went unanswered while their envelope may still land.
 */
export async function listTrackedTransactions(
  db: Queryable,
  networkId: number,
): Promise<StellarTransactionRow[]> {
  return db.query<StellarTransactionRow>(
    `SELECT * FROM stellar_transactions
     WHERE network_id = $1
       AND ((state IN ('signed', 'pending') AND sequence IS NOT NULL)
         OR (state = 'error' AND error_code = $2 AND submit_count > 0
             AND valid_until > now() - interval '1 minute'))
     ORDER BY state = 'error', application_id, sequence`,
    [networkId, UNCERTAIN_CODE],
  );
}

export type FinishedFields = {
  state: 'success' | 'failed';
  ledger: number;
  feeCharged: bigint;
  receipt: unknown;
  error: { code: string; message: string } | null;
};

/** A ledger holds it (an uncertain one too): its outcome and decoded receipt. Answers whether the row changed. */
export async function markFinished(db: Queryable, id: string, fields: FinishedFields): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE stellar_transactions SET state = $2, ledger = $3, fee_charged = $4, receipt = $5, error_code = $6,
       error_message = $7, finished_at = now()
     WHERE id = $1 AND (state IN ('signed', 'pending') OR (state = 'error' AND error_code = $8)) RETURNING id`,
    [
      id,
      fields.state,
      fields.ledger,
      fields.feeCharged.toString(),
      stringifyLosslessJson(fields.receipt),
      fields.error?.code ?? null,
      fields.error?.message ?? null,
      UNCERTAIN_CODE,
    ],
  );
  return rows.length > 0;
}

/** Records of ledgers the network no longer has (it went back): open again, to be submitted again. */
export async function reopenAfterLedger(db: Queryable, networkId: number, ledger: number): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `UPDATE stellar_transactions SET state = 'pending', ledger = NULL, fee_charged = NULL, receipt = NULL,
       error_code = NULL, error_message = NULL, finished_at = NULL
     WHERE network_id = $1 AND state IN ('success', 'failed') AND ledger > $2 RETURNING id`,
    [networkId, ledger],
  );
  return rows.length;
}

/** Open records of a network, per account in sequence order (the order they must reach the network). */
export async function listOpenTransactions(
  db: Queryable,
  networkId: number,
): Promise<StellarTransactionRow[]> {
  return db.query<StellarTransactionRow>(
    `SELECT * FROM stellar_transactions
     WHERE network_id = $1 AND state IN ('signed', 'pending') AND sequence IS NOT NULL
     ORDER BY application_id, sequence`,
    [networkId],
  );
}

export async function findTransactionById(
  db: Queryable,
  id: string,
): Promise<StellarTransactionRow | undefined> {
  const rows = await db.query<StellarTransactionRow>('SELECT * FROM stellar_transactions WHERE id = $1', [
    id,
  ]);
  return rows[0];
}

/** The application's record with that hash on that network; another application's is never returned. */
export async function findApplicationTransactionByHash(
  db: Queryable,
  applicationId: string,
  networkId: number,
  txHash: string,
): Promise<StellarTransactionRow | undefined> {
  const rows = await db.query<StellarTransactionRow>(
    `SELECT * FROM stellar_transactions WHERE application_id = $1 AND network_id = $2 AND tx_hash = $3
     ORDER BY created_at DESC LIMIT 1`,
    [applicationId, networkId, txHash.toLowerCase()],
  );
  return rows[0];
}

export async function listTransactionsByReference(
  db: Queryable,
  applicationId: string,
  reference: string,
): Promise<StellarTransactionRow[]> {
  return db.query<StellarTransactionRow>(
    'SELECT * FROM stellar_transactions WHERE application_id = $1 AND my_reference = $2 ORDER BY created_at, id',
    [applicationId, reference],
  );
}

/** The highest ledger a finished record of the network was seen in (to notice a network that went back). */
export async function maxFinishedLedger(db: Queryable, networkId: number): Promise<number | undefined> {
  const rows = await db.query<{ max: number | null }>(
    "SELECT max(ledger) AS max FROM stellar_transactions WHERE network_id = $1 AND state IN ('success', 'failed')",
    [networkId],
  );
  return rows[0]?.max ?? undefined;
}

/** The record holding an application's idempotency key: what a repeated request is answered with. */
export type KeyedSubmission = {
  id: string;
  fingerprint: string;
  txHash: string;
  state: StellarTransactionRow['state'];
  errorCode: string | null;
  errorMessage: string | null;
  contractAddress: string | null;
  /** A deployment's salt. */
  salt: string | null;
};

export async function findByIdempotencyKey(
  db: Queryable,
  applicationId: string,
  idempotencyKey: string,
): Promise<KeyedSubmission | undefined> {
  const [row] = await db.query<{
    id: string;
    idempotency_fingerprint: string;
    tx_hash: string;
    state: StellarTransactionRow['state'];
    error_code: string | null;
    error_message: string | null;
    contract_address: string | null;
    salt: string | null;
  }>(
    `SELECT t.id, t.idempotency_fingerprint, t.tx_hash, t.state, t.error_code, t.error_message, t.contract_address,
            c.salt
       FROM stellar_transactions t
       LEFT JOIN stellar_contracts c ON c.transaction_id = t.id
      WHERE t.application_id = $1 AND t.idempotency_key = $2`,
    [applicationId, idempotencyKey],
  );
  return row
    ? {
        id: row.id,
        fingerprint: row.idempotency_fingerprint,
        txHash: row.tx_hash,
        state: row.state,
        errorCode: row.error_code,
        errorMessage: row.error_message,
        contractAddress: row.contract_address,
        salt: row.salt,
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
    `SELECT idempotency_key FROM stellar_transactions WHERE application_id = $1 AND idempotency_key = ANY($2::text[])`,
    [applicationId, keys],
  );
  return new Set(rows.map((row) => row.idempotency_key));
}
