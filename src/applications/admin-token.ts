import type { IncomingHttpHeaders } from 'node:http';
import type { Queryable } from '../platform/db/database.ts';
import { getSetting, putSetting } from '../platform/db/settings.repository.ts';
import { ChaingateError } from '../platform/errors/chaingate-error.ts';
import { generateSecretToken, hashSecretToken, tokenMatchesHash } from './api-key.ts';
import { bearerToken } from './authentication.ts';

const ADMIN_TOKEN_SETTING = 'admin_token_sha256';

/** Stores the hash of the admin token, replacing any previous one. */
export async function setAdminToken(db: Queryable, token: string): Promise<void> {
  await putSetting(db, ADMIN_TOKEN_SETTING, hashSecretToken(token).toString('hex'));
}

export function newAdminToken(): string {
  return generateSecretToken('cg_admin');
}

export async function verifyAdminToken(db: Queryable, headers: IncomingHttpHeaders): Promise<void> {
  const value = await getSetting(db, ADMIN_TOKEN_SETTING);
  const stored = Buffer.from(value ?? '00'.repeat(32), 'hex');
  const token = bearerToken(headers);
  if (!token || value === undefined || !tokenMatchesHash(token, stored))
    throw new ChaingateError('CG_ERR_UNAUTHORIZED', 'missing or invalid admin token');
}
