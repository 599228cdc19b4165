import { randomBytes } from 'node:crypto';

/** `bytes` random bytes as 0x-hex: hashes, raw transactions and addresses for store-level tests. */
export function randomHex(bytes: number): `0x${string}` {
  return `0x${randomBytes(bytes).toString('hex')}`;
}
