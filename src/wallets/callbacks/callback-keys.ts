import { createHmac, randomBytes } from 'node:crypto';
import { findApplicationById } from '../../applications/applications.repository.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { Platform } from '../../platform/platform.ts';
import { type CallbackKeyRow, findCallbackKey, storeCallbackKey } from './callbacks.repository.ts';

/** The header that carries `sha256=<hex HMAC-SHA256 of the raw body>`. */
export const SIGNATURE_HEADER = 'x-chaingate-signature';
/** Unix milliseconds of the delivery attempt (not part of the signature; the body has its own time). */
export const TIMESTAMP_HEADER = 'x-chaingate-timestamp';
/** The delivery's id, the same on every retry: a receiver can drop duplicates by it. */
export const DELIVERY_HEADER = 'x-chaingate-delivery';

export type CallbackKey = { applicationId: string; callbackKey: string; createdAt: Date };

function sealContext(applicationId: string): string {
  return `wallet-callback-key:${applicationId}`;
}

function openKey(platform: Platform, row: CallbackKeyRow): CallbackKey {
  const key = platform.vault.open(
    { keyId: row.key_id, nonce: Buffer.from(row.key_nonce), ciphertext: Buffer.from(row.key_ciphertext) },
    sealContext(row.application_id),
  );
  return { applicationId: row.application_id, callbackKey: key.toString('utf8'), createdAt: row.created_at };
}

function newKey(): string {
  return `cg_whsec_${randomBytes(32).toString('base64url')}`;
}

async function ensureApplication(platform: Platform, applicationId: string): Promise<void> {
  if (!(await findApplicationById(platform.db, applicationId))) {
    throw new ChaingateError('CG_ERR_UNKNOWN_APPLICATION', `application ${applicationId} not found`, {
      context: { applicationId },
    });
  }
}

/** The application's callback key, created (sealed with the master key) on first use. */
export async function getCallbackKey(
  platform: Platform,
  applicationId: string,
  nowMs: number,
): Promise<CallbackKey> {
  const found = await findCallbackKey(platform.db, applicationId);
  if (found) return openKey(platform, found);
  await ensureApplication(platform, applicationId);
  const sealed = platform.vault.seal(Buffer.from(newKey(), 'utf8'), sealContext(applicationId));
  await storeCallbackKey(platform.db, applicationId, sealed, new Date(nowMs), { replace: false });
  return openKey(platform, (await findCallbackKey(platform.db, applicationId)) as CallbackKeyRow);
}

/** A new key; deliveries still pending are signed with it from their next attempt on. */
export async function rotateCallbackKey(
  platform: Platform,
  applicationId: string,
  nowMs: number,
): Promise<CallbackKey> {
  await ensureApplication(platform, applicationId);
  const key = newKey();
  const sealed = platform.vault.seal(Buffer.from(key, 'utf8'), sealContext(applicationId));
  await storeCallbackKey(platform.db, applicationId, sealed, new Date(nowMs), { replace: true });
  return { applicationId, callbackKey: key, createdAt: new Date(nowMs) };
}

/** `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the key's UTF-8 bytes. */
export function signCallbackBody(callbackKey: string, body: string): string {
  return `sha256=${createHmac('sha256', callbackKey).update(body, 'utf8').digest('hex')}`;
}
