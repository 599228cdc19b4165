import type { IncomingHttpHeaders } from 'node:http';
import type { Queryable } from '../platform/db/database.ts';
import { UnauthorizedError } from '../platform/http/gateway-error.ts';
import { generateSecretToken, hashSecretToken, tokenMatchesHash } from './api-key.ts';
import { bearerToken } from './authentication.ts';

const ADMIN_TOKEN_SETTING = 'admin_token_sha256';

/** Stores the hash of the admin token, replacing any previous one. */
export async function setAdminToken(db: Queryable, token: string): Promise<void> {
  await db.query(
    'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
    [ADMIN_TOKEN_SETTING, hashSecretToken(token).toString('hex')],
  );
}

export function newAdminToken(): string {
  return generateSecretToken('cg_admin');
}

export async function verifyAdminToken(db: Queryable, headers: IncomingHttpHeaders): Promise<void> {
  const rows = await db.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [
    ADMIN_TOKEN_SETTING,
  ]);
  const stored = Buffer.from(rows[0]?.value ?? '00'.repeat(32), 'hex');
  const token = bearerToken(headers);
  if (!token || !rows[0] || !tokenMatchesHash(token, stored))
    throw new UnauthorizedError('missing or invalid admin token');
}
