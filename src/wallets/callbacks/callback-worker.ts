import type { Platform } from '../../platform/platform.ts';
import type { WalletClock } from '../clock.ts';
import {
  DELIVERY_HEADER,
  getCallbackKey,
  SIGNATURE_HEADER,
  signCallbackBody,
  TIMESTAMP_HEADER,
} from './callback-keys.ts';
import {
  claimDueDeliveries,
  type DeliveryRow,
  markAttemptFailed,
  markDelivered,
} from './callbacks.repository.ts';
import { nextAttemptAt } from './retry-schedule.ts';

export type CallbackWorkerOptions = {
  /** How often the store is asked for due deliveries (new ones also wake the worker at once). */
  pollMs?: number;
  /** How long a claimed delivery is held before another process may try it (longer than a POST). */
  leaseMs?: number;
  /** How long the customer's server has to answer one POST. */
  timeoutMs?: number;
  batchSize?: number;
};

function describeFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).name === 'TimeoutError') return 'no answer in time';
  return String(cause?.code ?? cause?.message ?? (error as Error).message ?? error).slice(0, 200);
}

/**
 * Delivers the stored success callbacks: POSTs each signed body to the customer's `callbackUrl` until
 * it answers 2xx, with exponential backoff for 24 hours. Deliveries live in the store, so a restart
 * loses none, and claims are leased with SKIP LOCKED, so two processes on one PostgreSQL never POST
 * the same attempt twice.
 */
export class CallbackWorker {
  readonly #pollMs: number;
  readonly #leaseMs: number;
  readonly #timeoutMs: number;
  readonly #batchSize: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = true;

  constructor(
    private readonly platform: Platform,
    private readonly clock: WalletClock,
    options: CallbackWorkerOptions = {},
  ) {
    this.#pollMs = options.pollMs ?? 1000;
    this.#leaseMs = options.leaseMs ?? 60_000;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#batchSize = options.batchSize ?? 20;
  }

  start(): void {
    this.#stopped = false;
    this.wake();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** Runs a round now (or right after the one under way). */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#running = this.#round()
      .catch((error: unknown) =>
        this.platform.logger.warn({ err: (error as Error).message }, 'callback delivery round failed'),
      )
      .finally(() => {
        this.#running = undefined;
        if (this.#stopped) return;
        if (this.#again) {
          this.#again = false;
          this.wake();
        } else {
          this.#timer = setTimeout(() => this.wake(), this.#pollMs);
        }
      });
  }

  async #round(): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      const claimed = await claimDueDeliveries(
        this.platform.db,
        new Date(now),
        new Date(now + this.#leaseMs),
        this.#batchSize,
      );
      await Promise.all(claimed.map((row) => this.#deliver(row)));
      if (claimed.length < this.#batchSize || this.#stopped) return;
    }
  }

  async #deliver(row: DeliveryRow): Promise<void> {
    let status: number | null = null;
    let error: string;
    try {
      const { callbackKey } = await getCallbackKey(this.platform, row.application_id, this.clock.now());
      const response = await fetch(row.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'chaingate-callback/1',
          [SIGNATURE_HEADER]: signCallbackBody(callbackKey, row.body),
          [TIMESTAMP_HEADER]: String(this.clock.now()),
          [DELIVERY_HEADER]: row.id,
        },
        body: row.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      status = response.status;
      await response.body?.cancel();
      if (status >= 200 && status < 300) {
        await markDelivered(this.platform.db, row.id, status, new Date(this.clock.now()));
        return;
      }
      error = `answered ${status}`;
    } catch (failure) {
      error = describeFailure(failure);
    }
    const now = this.clock.now();
    const next = nextAttemptAt(row.attempts, now, row.give_up_at.getTime());
    await markAttemptFailed(this.platform.db, row.id, {
      status,
      error,
      nextAttemptAt: next === null ? null : new Date(next),
    });
    this.platform.logger.warn(
      { delivery: row.id, attempts: row.attempts, error, gaveUp: next === null },
      next === null ? 'callback given up after 24 h' : 'callback not delivered; will retry',
    );
  }
}
