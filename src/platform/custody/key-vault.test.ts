import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyVault, KeyVaultError } from './key-vault.ts';
import { loadMasterKey, MasterKeyError, masterKeyId, parseMasterKey } from './master-key.ts';

describe('KeyVault', () => {
  const secret = randomBytes(32);

  it('round-trips a secret and never stores it in clear', () => {
    const vault = new KeyVault(randomBytes(32));
    const sealed = vault.seal(secret, '0xabc');
    expect(sealed.ciphertext.includes(secret)).toBe(false);
    expect(sealed.ciphertext.length).toBe(secret.length + 16);
    expect(vault.open(sealed, '0xabc').equals(secret)).toBe(true);
  });

  it('uses a fresh nonce for every seal', () => {
    const vault = new KeyVault(randomBytes(32));
    const a = vault.seal(secret, 'ctx');
    const b = vault.seal(secret, 'ctx');
    expect(a.nonce.equals(b.nonce)).toBe(false);
    expect(a.ciphertext.equals(b.ciphertext)).toBe(false);
  });

  it('refuses a ciphertext moved to another context, tampered with, or sealed under an unknown key', () => {
    const vault = new KeyVault(randomBytes(32));
    const sealed = vault.seal(secret, '0xabc');
    expect(() => vault.open(sealed, '0xdef')).toThrow(KeyVaultError);
    const tampered = { ...sealed, ciphertext: Buffer.from(sealed.ciphertext) };
    tampered.ciphertext[0] = (tampered.ciphertext[0] as number) ^ 1;
    expect(() => vault.open(tampered, '0xabc')).toThrow(KeyVaultError);
    expect(() => new KeyVault(randomBytes(32)).open(sealed, '0xabc')).toThrow(/unknown master key/);
  });

  it('decrypts secrets sealed under a previous master key after rotation', () => {
    const oldKey = randomBytes(32);
    const sealed = new KeyVault(oldKey).seal(secret, 'ctx');
    const rotated = new KeyVault(randomBytes(32), [oldKey]);
    expect(rotated.open(sealed, 'ctx').equals(secret)).toBe(true);
    expect(rotated.seal(secret, 'ctx').keyId).toBe(rotated.currentKeyId);
    expect(rotated.currentKeyId).not.toBe(masterKeyId(oldKey));
  });
});

describe('master key', () => {
  it('parses hex and base64 and rejects anything else', () => {
    const key = randomBytes(32);
    expect(parseMasterKey(key.toString('hex'), 'k').equals(key)).toBe(true);
    expect(parseMasterKey(`0x${key.toString('hex')}`, 'k').equals(key)).toBe(true);
    expect(parseMasterKey(key.toString('base64'), 'k').equals(key)).toBe(true);
    expect(() => parseMasterKey('too-short', 'CHAINGATE_MASTER_KEY')).toThrow(MasterKeyError);
    expect(() => parseMasterKey(randomBytes(16).toString('hex'), 'k')).toThrow(/32 bytes/);
  });

  it('generates a key once into the data dir with mode 0600 and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-mk-'));
    const first = loadMasterKey(undefined, dir);
    expect(first.generated).toBe(true);
    expect(statSync(join(dir, 'master.key')).mode & 0o777).toBe(0o600);
    const second = loadMasterKey(undefined, dir);
    expect(second.generated).toBe(false);
    expect(second.key.equals(first.key)).toBe(true);
    expect(readFileSync(join(dir, 'master.key'), 'utf8').trim()).toBe(first.key.toString('hex'));
  });

  it('prefers the configured key', () => {
    const key = randomBytes(32);
    const dir = mkdtempSync(join(tmpdir(), 'cg-mk-'));
    expect(loadMasterKey(key.toString('hex'), dir)).toEqual({ key, generated: false });
  });
});
