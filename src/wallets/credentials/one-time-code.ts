import { createHash, randomInt } from 'node:crypto';

/** A 6-digit code from the system's CSPRNG, leading zeros kept. */
export function newOneTimeCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/**
 * What is stored of an e-mailed code: its SHA-256, bound to the row it belongs to (a wallet or a
 * hash) so equal codes of two users differ. Guessing stays bounded by the attempt counter, not by this.
 */
export function oneTimeCodeDigest(scopeId: string, code: string): string {
  return createHash('sha256').update(`${scopeId}:${code}`).digest('hex');
}
