import type { SealedSecret } from '../../platform/custody/key-vault.ts';
import type { Queryable } from '../../platform/db/database.ts';

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export type DeliveryRow = {
  id: string;
  application_id: string;
  wallet_id: string;
  url: string;
  body: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: Date;
  give_up_at: Date;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
};

export type CallbackKeyRow = {
  application_id: string;
  key_id: string;
  key_nonce: Uint8Array;
  key_ciphertext: Uint8Array;
  created_at: Date;
};

export async function findCallbackKey(
  db: Queryable,
  applicationId: string,
): Promise<CallbackKeyRow | undefined> {
  const rows = await db.query<CallbackKeyRow>(
    'SELECT * FROM wallet_callback_keys WHERE application_id = $1',
    [applicationId],
  );
  return rows[0];
}

/**
 * Stores the application's key: `replace` overwrites the one it has (a rotation), otherwise an existing
 * key wins (two first uses at once keep one key).
 */
export async function storeCallbackKey(
  db: Queryable,
  applicationId: string,
  sealed: SealedSecret,
  createdAt: Date,
  options: { replace: boolean },
): Promise<void> {
  const onConflict = options.replace
    ? `DO UPDATE SET key_id = EXCLUDED.key_id, key_nonce = EXCLUDED.key_nonce,
         key_ciphertext = EXCLUDED.key_ciphertext, created_at = EXCLUDED.created_at`
    : 'DO NOTHING';
  await db.query(
    `INSERT INTO wallet_callback_keys (application_id, key_id, key_nonce, key_ciphertext, created_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (application_id) ${onConflict}`,
    [applicationId, sealed.keyId, sealed.nonce, sealed.ciphertext, createdAt],
  );
}

export async function insertDelivery(
  db: Queryable,
  row: {
    id: string;
    applicationId: string;
    walletId: string;
    url: string;
    body: string;
    createdAt: Date;
    giveUpAt: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO wallet_callback_deliveries (id, application_id, wallet_id, url, body, state, next_attempt_at,
       give_up_at, created_at)
     VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7, $6)`,
    [row.id, row.applicationId, row.walletId, row.url, row.body, row.createdAt, row.giveUpAt],
  );
}

/**
 * Claims up to `limit` due deliveries for one attempt each: pushes their next attempt past `leaseUntil`
 * and counts the attempt, in one statement. Rows another process holds are skipped (SKIP LOCKED), and a
 * process that dies mid-delivery leaves the row to be claimed again when the lease runs out.
 */
export async function claimDueDeliveries(
  db: Queryable,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<DeliveryRow[]> {
  return db.query<DeliveryRow>(
    `UPDATE wallet_callback_deliveries SET next_attempt_at = $2, attempts = attempts + 1
     WHERE id IN (SELECT id FROM wallet_callback_deliveries
                  WHERE state = 'pending' AND next_attempt_at <= $1
                  ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING *`,
    [now, leaseUntil, limit],
  );
}

export async function markDelivered(db: Queryable, id: string, status: number, at: Date): Promise<void> {
  await db.query(
    `UPDATE wallet_callback_deliveries SET state = 'delivered', last_status = $2, last_error = NULL,
       delivered_at = $3 WHERE id = $1`,
    [id, status, at],
  );
}

/** A failed attempt: retried at `nextAttemptAt`, or given up (`failed`) when that is null. */
export async function markAttemptFailed(
  db: Queryable,
  id: string,
  failure: { status: number | null; error: string; nextAttemptAt: Date | null },
): Promise<void> {
  await db.query(
    `UPDATE wallet_callback_deliveries
     SET last_status = $2, last_error = $3,
         state = CASE WHEN $4::timestamptz IS NULL THEN 'failed' ELSE state END,
         next_attempt_at = COALESCE($4::timestamptz, next_attempt_at)
     WHERE id = $1`,
    [id, failure.status, failure.error, failure.nextAttemptAt],
  );
}

export async function listDeliveries(
  db: Queryable,
  filter: {
    applicationId?: string | undefined;
    state?: DeliveryState | undefined;
    offset: number;
    limit: number;
  },
): Promise<DeliveryRow[]> {
  return db.query<DeliveryRow>(
    `SELECT * FROM wallet_callback_deliveries
     WHERE ($1::uuid IS NULL OR application_id = $1) AND ($2::text IS NULL OR state = $2)
     ORDER BY created_at DESC, id OFFSET $3 LIMIT $4`,
    [filter.applicationId ?? null, filter.state ?? null, filter.offset, filter.limit],
  );
}

/** Queues a delivery again, whatever its state: due now, with a fresh 24-hour window. */
export async function requeueDelivery(
  db: Queryable,
  id: string,
  now: Date,
  giveUpAt: Date,
): Promise<DeliveryRow | undefined> {
  const rows = await db.query<DeliveryRow>(
    `UPDATE wallet_callback_deliveries SET state = 'pending', next_attempt_at = $2, give_up_at = $3,
       delivered_at = NULL WHERE id = $1 RETURNING *`,
    [id, now, giveUpAt],
  );
  return rows[0];
}
