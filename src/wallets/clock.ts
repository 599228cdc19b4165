/**
 * The time the wallets domain reads: hash expiry, code validity, lockouts, callback backoff. One
 * object, so a test running the whole service in-process can move it (`advance`); nothing outside
 * the process can reach it.
 */
export class WalletClock {
  #offsetMs = 0;

  now(): number {
    return Date.now() + this.#offsetMs;
  }

  /** Moves the clock forward (tests only: expiry, lockout and backoff without waiting). */
  advance(milliseconds: number): void {
    this.#offsetMs += milliseconds;
  }
}
