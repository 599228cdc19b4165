import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../platform/db/database.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';
import { rpcCall } from '../network/rpc-call.ts';
import type { ContractSpec } from '../spec/contract-spec.ts';
import { decodeLedgerOutcome } from './receipt.ts';
import type { RecordWatch } from './record-watch.ts';
import {
  listTrackedTransactions,
  markFinished,
  maxFinishedLedger,
  reopenAfterLedger,
} from './stellar-transactions.repository.ts';
import type { SubmissionLanes } from './submission-lanes.ts';
import type { StellarTransactionRow } from './transaction-record.ts';

/** The spec a record's return value and contract errors decode with (undefined: decode without it). */
export type SpecResolver = (row: StellarTransactionRow) => Promise<ContractSpec | undefined>;

export type TrackerContext = {
  db: Database;
  lanes: SubmissionLanes;
  watch: RecordWatch;
  logger: FastifyBaseLogger;
  specFor: SpecResolver;
};

/** Most `getTransaction` calls in flight at once. */
const CONCURRENT_LOOKUPS = 8;

async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++] as T);
  });
  await Promise.all(runners);
}

/**
 * Follows one network's open records to the ledger: each is looked up once per new ledger until the
 * network knows its outcome. A record the network does not know is submitted again from its stored
 * envelope: at start (the process may have died before or after submitting), when it was kept for
 * later (the network was busy, or did not answer its submission), and when the network seems to have
 * dropped it. A record an earlier version gave up after a submission without an answer is only looked
 * up, until its envelope expires.
 */
export class StellarTracker {
  /** Per open record: the latest ledger when it was last looked up. */
  readonly #lookedUpAt = new Map<string, number>();
  #recovered = false;
  /** When the store last had no open record here (undefined: it had some, or was not asked yet). */
  #emptySince: number | undefined;
  /** A record was written here since the store was last asked. */
  #written = false;

  constructor(
    private readonly context: TrackerContext,
    private readonly network: StellarNetwork,
    private readonly options: { signedGraceMs: number; resubmitAfterMs: number },
  ) {}

  /**
   * This process wrote a record for the network: the next tick asks the store even if it was empty a
   * moment ago. Called when a submission starts and again when it is written, so a tick whose query
   * ran before the record was committed does not leave it unseen for a second.
   */
  recordWritten(): void {
    this.#written = true;
  }

  async tick(): Promise<void> {
    const first = !this.#recovered;
    if (first) await this.#recoverFromNetworkRollback();
    // With nothing open, the store is asked once a second (every 250 ms before: four idle queries a
    // second) unless this process wrote a record since; records are written only through the engine.
    if (!first && !this.#written && this.#emptySince !== undefined && Date.now() - this.#emptySince < 1_000)
      return;
    this.#written = false;
    const rows = await listTrackedTransactions(this.context.db, this.network.networkId);
    if (rows.length === 0) {
      this.#emptySince = Date.now();
      this.#lookedUpAt.clear();
      return;
    }
    this.#emptySince = undefined;
    const latest = (await rpcCall(this.network, (server) => server.getLatestLedger())).sequence;
    const now = Date.now();
    const again = new Map<string, Set<string>>();
    await eachLimited(rows, CONCURRENT_LOOKUPS, async (row) => {
      const looked = this.#lookedUpAt.get(row.id);
      const due = this.#dueForSubmission(row, first, now);
      if (!first && !due && looked !== undefined && looked >= latest) return;
      this.#lookedUpAt.set(row.id, latest);
      const answer = await rpcCall(this.network, (server) => server.getTransaction(row.tx_hash as string));
      if (answer.status === 'SUCCESS' || answer.status === 'FAILED') {
        await this.#finish(row, answer);
        return;
      }
      if (due) again.set(row.application_id, (again.get(row.application_id) ?? new Set()).add(row.id));
    });
    for (const [applicationId, ids] of again) {
      await this.context.lanes.resubmit(this.network, applicationId, ids, (txHash) => this.#isGone(txHash));
    }
    const open = new Set(rows.map((row) => row.id));
    for (const id of this.#lookedUpAt.keys()) if (!open.has(id)) this.#lookedUpAt.delete(id);
  }

  /** Whether the network may not have the record, so that it should be submitted (again). */
  #dueForSubmission(row: StellarTransactionRow, first: boolean, now: number): boolean {
    // A record given up is never submitted again, only looked up.
    if (row.state === 'error') return false;
    if (first) return true;
    const since = now - new Date(row.last_submitted_at ?? row.created_at).getTime();
    return row.state === 'signed' ? since > this.options.signedGraceMs : since > this.options.resubmitAfterMs;
  }

  async #isGone(txHash: string): Promise<boolean> {
    const answer = await rpcCall(this.network, (server) => server.getTransaction(txHash));
    return answer.status === 'NOT_FOUND';
  }

  /**
   * A network that lost ledgers (a local network restored from an older snapshot, a reset test
   * network) no longer has what our records say it holds: those records are opened again.
   */
  async #recoverFromNetworkRollback(): Promise<void> {
    const highest = await maxFinishedLedger(this.context.db, this.network.networkId);
    if (highest !== undefined) {
      const latest = (await rpcCall(this.network, (server) => server.getLatestLedger())).sequence;
      if (latest < highest) {
        const reopened = await reopenAfterLedger(this.context.db, this.network.networkId, latest);
        this.context.logger.warn(
          { networkId: this.network.networkId, latest, highest, reopened },
          'stellar: the network went back; records of the lost ledgers are submitted again',
        );
      }
    }
    this.#recovered = true;
  }

  async #finish(
    row: StellarTransactionRow,
    answer: Parameters<typeof decodeLedgerOutcome>[0],
  ): Promise<void> {
    let spec: ContractSpec | undefined;
    try {
      spec = await this.context.specFor(row);
    } catch (error) {
      // Finished without its spec, the record would keep a receipt without the contract's types and
      // error names for good. If the network did not answer, it is finished on a later look instead.
      if (
        error instanceof ChaingateError &&
        (error.code === 'CG_ERR_STELLAR_UNREACHABLE' || error.code === 'CG_ERR_DEPENDENCY')
      ) {
        this.context.logger.warn(
          { networkId: this.network.networkId, id: row.id, reason: error.shortMessage },
          'stellar: the spec to decode a receipt could not be read; the record is finished later',
        );
        return;
      }
      spec = undefined;
    }
    const outcome = decodeLedgerOutcome(answer, { spec, method: row.method });
    await markFinished(this.context.db, row.id, outcome);
    this.#lookedUpAt.delete(row.id);
    this.context.watch.notify(row.id);
  }
}
