import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new secret token: 32 random bytes, base64url, with a prefix that says what it is. */
export function generateSecretToken(prefix: 'cg_key' | 'cg_admin'): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/**
 * Tokens are 256-bit random, so one SHA-256 is enough to store them safely (no dictionary to attack);
 * a slow password hash would only slow every request down.
 */
export function hashSecretToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Constant-time comparison of a presented token with a stored hash. */
export function tokenMatchesHash(token: string, hash: Uint8Array): boolean {
  const presented = hashSecretToken(token);
  return hash.length === presented.length && timingSafeEqual(presented, hash);
}

/** The last characters of a key, kept so an operator can tell keys apart in listings. */
export function tokenHint(token: string): string {
  return `…${token.slice(-4)}`;
}
