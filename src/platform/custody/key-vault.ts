import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { masterKeyId } from './master-key.ts';

/** A secret sealed with AES-256-GCM under a master key; `ciphertext` carries the 16-byte tag at its end. */
export type SealedSecret = { keyId: string; nonce: Buffer; ciphertext: Buffer };

export class KeyVaultError extends Error {
  override name = 'KeyVaultError';
}

const TAG_BYTES = 16;

/**
 * Encrypts and decrypts secrets (private keys, TOTP secrets) with the master key. `context` is bound
 * as additional authenticated data (e.g. the account address), so a ciphertext moved to another row
 * does not decrypt. Older master keys can be given for decryption only, to rotate.
 */
export class KeyVault {
  readonly currentKeyId: string;
  readonly #keys = new Map<string, Buffer>();

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const key of [current, ...previous]) {
      if (key.length !== 32) throw new KeyVaultError('a master key must be 32 bytes');
      this.#keys.set(masterKeyId(key), key);
    }
    this.currentKeyId = masterKeyId(current);
  }

  seal(secret: Uint8Array, context: string): SealedSecret {
    const key = this.#keys.get(this.currentKeyId) as Buffer;
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(secret), cipher.final(), cipher.getAuthTag()]);
    return { keyId: this.currentKeyId, nonce, ciphertext };
  }

  open(sealed: SealedSecret, context: string): Buffer {
    const key = this.#keys.get(sealed.keyId);
    if (!key) throw new KeyVaultError(`secret was sealed with unknown master key ${sealed.keyId}`);
    const body = sealed.ciphertext.subarray(0, sealed.ciphertext.length - TAG_BYTES);
    const tag = sealed.ciphertext.subarray(sealed.ciphertext.length - TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.nonce);
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(body), decipher.final()]);
    } catch (cause) {
      throw new KeyVaultError(`secret for ${context} failed authentication`, { cause });
    }
  }
}
