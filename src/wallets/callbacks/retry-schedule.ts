/** First retry after 1 s, doubling each time, never more than an hour apart. */
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 60 * 60 * 1000;
/** A callback is retried for this long after it was queued, then given up. */
export const DELIVERY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * When to try again after `attempts` failed attempts, or null to give up. The last retry falls on the
 * end of the window rather than past it.
 */
export function nextAttemptAt(attempts: number, nowMs: number, giveUpAtMs: number): number | null {
  if (nowMs >= giveUpAtMs) return null;
  const delay = Math.min(FIRST_DELAY_MS * 2 ** Math.max(0, attempts - 1), MAX_DELAY_MS);
  return Math.min(nowMs + delay, giveUpAtMs);
}
