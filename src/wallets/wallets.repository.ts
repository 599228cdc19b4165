import type { SealedSecret } from '../platform/custody/key-vault.ts';
import type { Queryable } from '../platform/db/database.ts';

export type Strategy = 1 | 2 | 3;

export type WalletHashRow = {
  id: string;
  hash_sha256: string;
  application_id: string;
  username: string;
  strategies: number[];
  callback_url: string;
  fallback_url: string;
  cancel_url: string;
  expires_at: Date;
  spent_at: Date | null;
  setup_strategy: Strategy | null;
  setup_totp_key_id: string | null;
  setup_totp_nonce: Uint8Array | null;
  setup_totp_ciphertext: Uint8Array | null;
  setup_code_sha256: string | null;
  setup_code_expires_at: Date | null;
  setup_code_sent_at: Date | null;
  failed_attempts: number;
  locked_until: Date | null;
  created_at: Date;
};

export type WalletRow = {
  id: string;
  application_id: string;
  user_email: string;
  address: string;
  strategy: Strategy;
  pin_hash: string | null;
  totp_key_id: string | null;
  totp_nonce: Uint8Array | null;
  totp_ciphertext: Uint8Array | null;
  totp_last_step: string | null;
  failed_attempts: number;
  locked_until: Date | null;
  hash_id: string;
  created_at: Date;
};

/** The two tables whose rows count wrong PINs and codes: a hash being set up, and a wallet. */
export type AttemptsTable = 'wallet_hashes' | 'custodied_wallets';

export async function insertWalletHash(
  db: Queryable,
  row: {
    id: string;
    hashSha256: string;
    applicationId: string;
    username: string;
    strategies: number[];
    callbackUrl: string;
    fallbackUrl: string;
    cancelUrl: string;
    expiresAt: Date;
    createdAt: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO wallet_hashes (id, hash_sha256, application_id, username, strategies, callback_url, fallback_url,
       cancel_url, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      row.id,
      row.hashSha256,
      row.applicationId,
      row.username,
      row.strategies,
      row.callbackUrl,
      row.fallbackUrl,
      row.cancelUrl,
      row.expiresAt,
      row.createdAt,
    ],
  );
}

export async function findWalletHash(db: Queryable, hashSha256: string): Promise<WalletHashRow | undefined> {
  const rows = await db.query<WalletHashRow>('SELECT * FROM wallet_hashes WHERE hash_sha256 = $1', [
    hashSha256,
  ]);
  return rows[0];
}

/** Starts (or restarts) the setup of a strategy on the page; the pending secret of another is dropped. */
export async function recordSetup(
  db: Queryable,
  id: string,
  setup: {
    strategy: Strategy;
    totp?: SealedSecret;
    code?: { sha256: string; expiresAt: Date; sentAt: Date };
  },
): Promise<void> {
  await db.query(
    `UPDATE wallet_hashes SET setup_strategy = $2, setup_totp_key_id = $3, setup_totp_nonce = $4,
       setup_totp_ciphertext = $5, setup_code_sha256 = $6, setup_code_expires_at = $7, setup_code_sent_at = $8
     WHERE id = $1`,
    [
      id,
      setup.strategy,
      setup.totp?.keyId ?? null,
      setup.totp?.nonce ?? null,
      setup.totp?.ciphertext ?? null,
      setup.code?.sha256 ?? null,
      setup.code?.expiresAt ?? null,
      setup.code?.sentAt ?? null,
    ],
  );
}

/** Marks the hash used, once: false when it was already spent or has expired at `now`. */
export async function spendWalletHash(db: Queryable, id: string, now: Date): Promise<boolean> {
  const rows = await db.query(
    'UPDATE wallet_hashes SET spent_at = $2 WHERE id = $1 AND spent_at IS NULL AND expires_at > $2 RETURNING id',
    [id, now],
  );
  return rows.length === 1;
}

export async function lockAttemptsRow(
  tx: Queryable,
  table: AttemptsTable,
  id: string,
): Promise<{ failed_attempts: number; locked_until: Date | null } | undefined> {
  const rows = await tx.query<{ failed_attempts: number; locked_until: Date | null }>(
    `SELECT failed_attempts, locked_until FROM ${table} WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0];
}

export async function writeAttempts(
  db: Queryable,
  table: AttemptsTable,
  id: string,
  failedAttempts: number,
  lockedUntil: Date | null,
): Promise<void> {
  await db.query(`UPDATE ${table} SET failed_attempts = $2, locked_until = $3 WHERE id = $1`, [
    id,
    failedAttempts,
    lockedUntil,
  ]);
}

export async function insertWallet(
  db: Queryable,
  row: {
    id: string;
    applicationId: string;
    userEmail: string;
    address: string;
    strategy: Strategy;
    pinHash: string | null;
    totp: SealedSecret | null;
    totpLastStep: bigint | null;
    hashId: string;
    createdAt: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO custodied_wallets (id, application_id, user_email, address, strategy, pin_hash, totp_key_id,
       totp_nonce, totp_ciphertext, totp_last_step, hash_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      row.id,
      row.applicationId,
      row.userEmail,
      row.address.toLowerCase(),
      row.strategy,
      row.pinHash,
      row.totp?.keyId ?? null,
      row.totp?.nonce ?? null,
      row.totp?.ciphertext ?? null,
      row.totpLastStep === null ? null : row.totpLastStep.toString(),
      row.hashId,
      row.createdAt,
    ],
  );
}

export async function findWalletByEmail(
  db: Queryable,
  applicationId: string,
  userEmail: string,
): Promise<WalletRow | undefined> {
  const rows = await db.query<WalletRow>(
    'SELECT * FROM custodied_wallets WHERE application_id = $1 AND user_email = $2',
    [applicationId, userEmail],
  );
  return rows[0];
}

/** The wallet only if it belongs to `applicationId`: another application's wallet is never returned. */
export async function findWalletByAddress(
  db: Queryable,
  applicationId: string,
  address: string,
): Promise<WalletRow | undefined> {
  const rows = await db.query<WalletRow>(
    'SELECT * FROM custodied_wallets WHERE application_id = $1 AND address = $2',
    [applicationId, address.toLowerCase()],
  );
  return rows[0];
}

export async function listWallets(
  db: Queryable,
  applicationId: string,
  offset: number,
  limit: number,
): Promise<WalletRow[]> {
  return db.query<WalletRow>(
    `SELECT * FROM custodied_wallets WHERE application_id = $1 ORDER BY created_at, id OFFSET $2 LIMIT $3`,
    [applicationId, offset, limit],
  );
}

/** Accepts a TOTP time step once: false when that step or a later one was already used. */
export async function consumeTotpStep(db: Queryable, walletId: string, step: bigint): Promise<boolean> {
  const rows = await db.query(
    `UPDATE custodied_wallets SET totp_last_step = $2
     WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
    [walletId, step.toString()],
  );
  return rows.length === 1;
}

export async function insertEmailCode(
  db: Queryable,
  row: { id: string; walletId: string; codeSha256: string; expiresAt: Date; createdAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO wallet_email_codes (id, wallet_id, code_sha256, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [row.id, row.walletId, row.codeSha256, row.expiresAt, row.createdAt],
  );
}

/** Uses an e-mailed code once: false when it is unknown, used or expired at `now`. */
export async function consumeEmailCode(
  db: Queryable,
  walletId: string,
  codeSha256: string,
  now: Date,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE wallet_email_codes SET used_at = $3
     WHERE id = (SELECT id FROM wallet_email_codes
                 WHERE wallet_id = $1 AND code_sha256 = $2 AND used_at IS NULL AND expires_at > $3
                 ORDER BY created_at LIMIT 1 FOR UPDATE)
       AND used_at IS NULL
     RETURNING id`,
    [walletId, codeSha256, now],
  );
  return rows.length === 1;
}
