import { createHash, randomBytes } from 'node:crypto';

/** A new wallet-creation hash: 256 random bits, hex (URL-safe as it is). */
export function newWalletHash(): string {
  return randomBytes(32).toString('hex');
}

/** What the store keeps of a hash: it is a bearer credential for the wallet page. */
export function walletHashDigest(hash: string): string {
  return createHash('sha256').update(hash, 'utf8').digest('hex');
}

/** E-mail addresses compare without case and surrounding spaces: one user, one wallet. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The link the customer sends its user to. */
export function walletPageLink(walletUrl: string, hash: string, username: string): string {
  return `${walletUrl}/?hash=${encodeURIComponent(hash)}&username=${encodeURIComponent(username)}`;
}
