import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class MasterKeyError extends Error {
  override name = 'MasterKeyError';
}

/** Parses a 32-byte key given as 64 hex characters (optionally 0x-prefixed) or as base64. */
export function parseMasterKey(text: string, source: string): Buffer {
  const trimmed = text.trim();
  const hex = trimmed.replace(/^0x/i, '');
  if (/^[0-9a-fA-F]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
  const decoded = Buffer.from(trimmed, 'base64');
  if (decoded.length === 32 && /^[A-Za-z0-9+/_-]+=*$/.test(trimmed)) return decoded;
  throw new MasterKeyError(`${source} must be 32 bytes, as 64 hex characters or base64`);
}

/** Short public identifier of a master key, stored beside each ciphertext so keys can be rotated. */
export function masterKeyId(key: Buffer): string {
  return createHash('sha256').update('chaingate-master-key-id').update(key).digest('hex').slice(0, 16);
}

export type MasterKeySource = { key: Buffer; generated: boolean; path?: string };

/**
 * The master key from `CHAINGATE_MASTER_KEY`, else from `<dataDir>/master.key`, else a new one written
 * there with mode 0600 (the embedded default; the caller warns).
 */
export function loadMasterKey(configured: string | undefined, dataDir: string): MasterKeySource {
  if (configured) return { key: parseMasterKey(configured, 'CHAINGATE_MASTER_KEY'), generated: false };
  const path = join(dataDir, 'master.key');
  if (existsSync(path)) {
    return { key: parseMasterKey(readFileSync(path, 'utf8'), path), generated: false, path };
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(path, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  return { key, generated: true, path };
}
