import type { Database } from '../../platform/db/database.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { type AttemptsTable, lockAttemptsRow, writeAttempts } from '../wallets.repository.ts';

/** Wrong PINs or codes in a row that lock a wallet (or a hash being set up). */
export const MAX_WRONG_ATTEMPTS = 5;
export const LOCK_MS = 15 * 60 * 1000;

export function walletLocked(lockedUntilMs: number, nowMs: number): ChaingateError {
  const retryAfterSeconds = Math.max(1, Math.ceil((lockedUntilMs - nowMs) / 1000));
  return new ChaingateError(
    'CG_ERR_WALLET_LOCKED',
    `too many wrong PINs or codes: locked, retry in ${retryAfterSeconds} s`,
    { context: { retryAfterSeconds } },
  );
}

/**
 * Counts an attempt as wrong BEFORE it is checked, in one short transaction on the row; a good code
 * then clears the count (`clearAttempts`). So parallel guesses cannot slip past the limit, and a crash
 * between the two counts the attempt. Throws CG_ERR_WALLET_LOCKED while the row is locked.
 */
export async function reserveAttempt(
  db: Database,
  table: AttemptsTable,
  id: string,
  nowMs: number,
): Promise<void> {
  const lockedUntil = await db.transaction(async (tx) => {
    const row = await lockAttemptsRow(tx, table, id);
    if (!row) return undefined;
    const lockedMs = row.locked_until?.getTime();
    if (lockedMs !== undefined && lockedMs > nowMs) return lockedMs;
    // A lock that has run out starts a fresh count.
    const count = (lockedMs === undefined ? row.failed_attempts : 0) + 1;
    await writeAttempts(tx, table, id, count, count >= MAX_WRONG_ATTEMPTS ? new Date(nowMs + LOCK_MS) : null);
    return undefined;
  });
  if (lockedUntil !== undefined) throw walletLocked(lockedUntil, nowMs);
}

/** A good PIN or code: the count of wrong ones in a row starts again. */
export async function clearAttempts(db: Database, table: AttemptsTable, id: string): Promise<void> {
  await writeAttempts(db, table, id, 0, null);
}
