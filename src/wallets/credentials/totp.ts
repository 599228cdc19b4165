import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app implements it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Codes of the step before and after the current one are accepted (clock drift of the phone). */
const WINDOW = 1;

export type NewTotpSecret = { secret: Buffer; base32: string; otpauthUri: string };

/** A new 160-bit secret and its `otpauth://` URI for an authenticator app. */
export function newTotpSecret(issuer: string, accountName: string): NewTotpSecret {
  const secret = new Secret({ size: 20 });
  const totp = new TOTP({
    issuer,
    label: accountName,
    secret,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
  });
  return { secret: Buffer.from(secret.bytes), base32: secret.base32, otpauthUri: totp.toString() };
}

/**
 * The time step a code belongs to, if it is valid at `nowMs` (within one step either side); undefined
 * otherwise. The caller accepts each step once, which makes a code single-use.
 */
export function totpStepOf(secret: Uint8Array, code: string, nowMs: number): bigint | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = TOTP.validate({
    token: code,
    secret: new Secret({ buffer: Uint8Array.from(secret).buffer }),
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
    timestamp: nowMs,
    window: WINDOW,
  });
  if (delta === null) return undefined;
  return BigInt(Math.floor(nowMs / 1000 / PERIOD_SECONDS) + delta);
}

/** The sealing context of a secret pending on a wallet hash: it opens for that hash only. */
export function setupTotpSealContext(hashId: string): string {
  return `wallet-hash-totp:${hashId}`;
}

/** The sealing context of a wallet's secret: it opens for that wallet only. */
export function walletTotpSealContext(walletId: string): string {
  return `custodied-wallet-totp:${walletId}`;
}
