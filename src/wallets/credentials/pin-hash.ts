import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt cost: N = 2^15, r = 8, p = 1 (about 32 MiB and tens of milliseconds a hash, off the event loop). */
const COST_LOG2 = 15;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_BYTES = 32;

function derive(pin: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(pin.normalize('NFC'), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

function costOptions(costLog2: number, blockSize: number, parallelism: number): ScryptOptions {
  const N = 2 ** costLog2;
  return { N, r: blockSize, p: parallelism, maxmem: 128 * N * blockSize * parallelism + 1024 * 1024 };
}

/** A PIN hashed with scrypt and a random salt, as `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` (base64url). */
export async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(pin, salt, costOptions(COST_LOG2, BLOCK_SIZE, PARALLELISM));
  return [
    'scrypt',
    COST_LOG2,
    BLOCK_SIZE,
    PARALLELISM,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/** Whether `pin` matches a stored hash; the comparison takes the same time whatever the mismatch. */
export async function verifyPin(pin: string, stored: string): Promise<boolean> {
  const [scheme, costLog2, blockSize, parallelism, salt, expected] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !expected) throw new Error('unknown PIN hash format');
  const key = await derive(
    pin,
    Buffer.from(salt, 'base64url'),
    costOptions(Number(costLog2), Number(blockSize), Number(parallelism)),
  );
  const wanted = Buffer.from(expected, 'base64url');
  return key.length === wanted.length && timingSafeEqual(key, wanted);
}

/** What a user may choose as a PIN (strategy 1). */
export const PIN_PATTERN = /^\d{4,12}$/;
