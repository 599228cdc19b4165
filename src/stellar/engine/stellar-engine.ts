import type { StellarAccountRow } from '../../platform/custody/stellar-accounts.repository.ts';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';
import type { Platform } from '../../platform/platform.ts';
import { type PollLoop, startPollLoop } from '../../platform/scheduling/poll-loop.ts';
import type { SubmittedTransaction } from './lane-entries.ts';
import type { PreparedTransaction } from './prepared-transaction.ts';
import { RecordWatch } from './record-watch.ts';
import { type SpecResolver, StellarTracker } from './stellar-tracker.ts';
import { findTransactionById } from './stellar-transactions.repository.ts';
import { SubmissionLanes } from './submission-lanes.ts';
import type { StellarTransactionRow } from './transaction-record.ts';

export type StellarEngineOptions = {
  specFor: SpecResolver;
  /** How often each network's open records are looked at; default 250 ms locally, 2 s elsewhere. */
  pollIntervalMs?: number;
};

/**
 * The Stellar transaction engine: write-ahead submission through one lane per application account,
 * and one tracker loop per network (started and stopped by the service, like the EVM engine).
 */
export class StellarEngine {
  readonly watch = new RecordWatch();
  readonly lanes: SubmissionLanes;
  readonly #loops = new Map<number, PollLoop>();
  readonly #trackers = new Map<number, StellarTracker>();
  #lastWarning = new Map<number, number>();

  constructor(
    private readonly platform: Platform,
    private readonly options: StellarEngineOptions,
  ) {
    this.lanes = new SubmissionLanes({
      db: platform.db,
      vault: platform.vault,
      watch: this.watch,
      logger: platform.logger,
    });
  }

  submit(
    network: StellarNetwork,
    account: StellarAccountRow,
    prepared: PreparedTransaction,
  ): Promise<SubmittedTransaction> {
    // Told before and after: a tick may ask the store between the two, before the record is committed.
    const written = () => this.#trackers.get(network.networkId)?.recordWritten();
    written();
    const submitted = this.lanes.submit(network, account, prepared);
    void submitted.then(written, written);
    return submitted;
  }

  /** Waits until the record is finished (or `timeoutMs` passed) and answers it as it then is. */
  async waitForRecord(id: string, timeoutMs: number): Promise<StellarTransactionRow | undefined> {
    const current = await findTransactionById(this.platform.db, id);
    if (!current || !['signed', 'pending'].includes(current.state)) return current;
    this.#loops.get(current.network_id)?.kick();
    await this.watch.wait(id, timeoutMs);
    return findTransactionById(this.platform.db, id);
  }

  start(): void {
    for (const network of this.platform.stellar.all()) {
      const tracker = new StellarTracker(
        {
          db: this.platform.db,
          lanes: this.lanes,
          watch: this.watch,
          logger: this.platform.logger,
          specFor: this.options.specFor,
        },
        network,
        network.isLocal
          ? { signedGraceMs: 2_000, resubmitAfterMs: 5_000 }
          : { signedGraceMs: 5_000, resubmitAfterMs: 30_000 },
      );
      this.#trackers.set(network.networkId, tracker);
      this.#loops.set(
        network.networkId,
        startPollLoop({
          intervalMs: this.options.pollIntervalMs ?? (network.isLocal ? 250 : 2_000),
          tick: () => tracker.tick(),
          onError: (error) => this.#warn(network, error),
        }),
      );
    }
  }

  async stop(): Promise<void> {
    await Promise.all([...this.#loops.values()].map((loop) => loop.stop()));
    this.#loops.clear();
    this.#trackers.clear();
  }

  /** An unreachable network fails every tick: say so once a minute, not every tick. */
  #warn(network: StellarNetwork, error: unknown): void {
    const now = Date.now();
    if (now - (this.#lastWarning.get(network.networkId) ?? 0) < 60_000) return;
    this.#lastWarning.set(network.networkId, now);
    this.platform.logger.warn(
      { networkId: network.networkId, err: (error as Error).message },
      'stellar: tracker tick failed',
    );
  }
}
