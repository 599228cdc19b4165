import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { newOneTimeCode, oneTimeCodeDigest } from './one-time-code.ts';
import { hashPin, PIN_PATTERN, verifyPin } from './pin-hash.ts';
import { newTotpSecret, totpStepOf } from './totp.ts';

describe('PIN hashes', () => {
  it('are salted scrypt hashes that verify the PIN and nothing else', async () => {
    const first = await hashPin('0123');
    const second = await hashPin('0123');
    expect(first).toMatch(/^scrypt\$15\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('0123');
    expect(await verifyPin('0123', first)).toBe(true);
    expect(await verifyPin('123', first)).toBe(false);
    expect(await verifyPin('01234', first)).toBe(false);
  });

  it('accept 4 to 12 digits as a PIN', () => {
    expect(['0000', '123456789012'].every((pin) => PIN_PATTERN.test(pin))).toBe(true);
    expect(['123', '1234567890123', '12a4', ' 1234'].some((pin) => PIN_PATTERN.test(pin))).toBe(false);
  });
});

describe('TOTP', () => {
  it('gives the time step of a valid code, one step of drift either way, and nothing for others', () => {
    const { secret, base32, otpauthUri } = newTotpSecret('Shop', 'a@example.com');
    expect(otpauthUri).toContain(`secret=${base32}`);
    expect(otpauthUri).toMatch(/algorithm=SHA1&digits=6&period=30/);
    const now = 1_800_000_000_000;
    const code = (at: number) => TOTP.generate({ secret: Secret.fromBase32(base32), timestamp: at });
    const step = BigInt(Math.floor(now / 30_000));
    expect(totpStepOf(secret, code(now), now)).toBe(step);
    expect(totpStepOf(secret, code(now - 30_000), now)).toBe(step - 1n);
    expect(totpStepOf(secret, code(now + 30_000), now)).toBe(step + 1n);
    expect(totpStepOf(secret, code(now - 90_000), now)).toBeUndefined();
    expect(totpStepOf(secret, 'abcdef', now)).toBeUndefined();
    expect(totpStepOf(secret, '1234567', now)).toBeUndefined();
  });
});

describe('one-time codes', () => {
  it('are 6 digits and stored as a digest bound to their row', () => {
    for (let i = 0; i < 50; i++) expect(newOneTimeCode()).toMatch(/^\d{6}$/);
    expect(oneTimeCodeDigest('a', '123456')).not.toBe(oneTimeCodeDigest('b', '123456'));
    expect(oneTimeCodeDigest('a', '123456')).toMatch(/^[0-9a-f]{64}$/);
  });
});
