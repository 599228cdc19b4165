import type { Address } from 'viem';
import { addBounded } from '../../platform/caches/bounded.ts';
import { signEip1559 } from '../../platform/custody/evm-account.ts';
import { EvmSigners } from '../../platform/custody/evm-signers.ts';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';
import type { Platform } from '../../platform/platform.ts';
import { type PollLoop, startPollLoop } from '../../platform/scheduling/poll-loop.ts';
import { forgetContractCode } from '../contracts/contract-code.ts';
import type { BroadcastOutcome } from './broadcast-errors.ts';
import { BroadcastMarks } from './broadcast-marks.ts';
import { CanonicalChain } from './canonical-chain.ts';
import { listSendersToReconcile } from './chain-recovery.repository.ts';
import { recoverSender } from './chain-recovery.ts';
import { ConfirmationTracker, type RevertDecoder } from './confirmation-tracker.ts';
import { bumpedFees, FeeOracle } from './fee-oracle.ts';
import { GroupCommit } from './group-commit.ts';
import { claimGap, ensureNonceRow, highestFeesAtNonce, listOldGaps } from './nonces.repository.ts';
import { type RebroadcastContext, rebroadcast } from './rebroadcast.ts';
import { type KeyHeld, type SigningItem, signAndStoreGroup } from './sign-and-store.ts';
import { type SubmitTransactionParameters, submitTransaction } from './submit-transaction.ts';
import type { TransactionRow } from './transaction-record.ts';
import {
  listTransactionsToCheck,
  reopenMinedFrom,
  replaceCurrentAttempt,
  type SignedFields,
} from './transactions.repository.ts';

/** Addresses whose nonce row is known to exist, remembered at most (see #ensureNonceRow). */
const MAX_KNOWN_NONCE_ROWS = 100_000;
/** Between new blocks, the open records are looked at in the store at most this often. */
const RECORD_PASS_EVERY_MS = 1_000;

export type TxEngineOptions = {
  /** How often each network is polled. */
  pollIntervalMs?: number;
  /** An inserted transaction not mined after this long is re-sent with higher fees. */
  stuckAfterMs?: number;
  /** A nonce gap older than this is filled with a zero-value self-transfer. */
  gapFillAfterMs?: number;
  /** How often the active senders' stored nonces are compared with the chain's (recovery). */
  reconcileEveryMs?: number;
  /**
   * A stored transaction the node keeps refusing, in words that name no passing cause, for this long is
   * failed (ERROR_CHAIN_LOST) and its nonce filled.
   */
  refusedFailAfterSeconds: number;
  decodeRevert: RevertDecoder;
};

/**
 * The transaction engine: write-ahead sends, store-allocated nonces, and one maintenance loop per
 * network that tracks confirmations, rebroadcasts what the node may have lost, re-sends stuck
 * transactions with higher fees and fills nonce gaps.
 */
export class TxEngine {
  readonly fees = new FeeOracle();
  readonly signers: EvmSigners;
  readonly #trackers = new Map<number, ConfirmationTracker>();
  readonly #canonical = new Map<number, CanonicalChain>();
  readonly #nonceRows = new Set<string>();
  /** Per network: when each open record's receipt was last looked up one by one. */
  readonly #lastChecked = new Map<number, Map<string, number>>();
  readonly #loops: PollLoop[] = [];
  /** Per network: the highest head seen, and when the senders were last reconciled with the chain. */
  readonly #lastHead = new Map<number, bigint>();
  readonly #lastReconciled = new Map<number, number>();
  /** Per network, the senders whose recovery pass stopped at its bound: the next tick goes on with them. */
  readonly #unfinishedRecoveries = new Map<number, Set<string>>();
  readonly #lastGapLook = new Map<number, number>();
  /** Per network: the head and time of the last look at the open records in the store. */
  readonly #lastRecordPass = new Map<number, { head: bigint; at: number }>();
  #stopped = false;
  #startedAt = Date.now();

  constructor(
    private readonly platform: Platform,
    private readonly options: TxEngineOptions,
  ) {
    this.signers = new EvmSigners(platform.db, platform.vault);
    this.#signing = new GroupCommit(platform.db, signAndStoreGroup);
    this.#marks = new BroadcastMarks(platform.db);
  }

  readonly #signing: GroupCommit<SigningItem, SignedFields | KeyHeld>;
  readonly #marks: BroadcastMarks;

  submit(parameters: SubmitTransactionParameters) {
    return submitTransaction(
      {
        db: this.platform.db,
        signing: this.#signing,
        marks: this.#marks,
        ensureNonceRow: (network, address) => this.#ensureNonceRow(network, address),
        logger: this.platform.logger,
      },
      parameters,
    );
  }

  async #ensureNonceRow(network: EvmNetwork, address: Address): Promise<void> {
    const key = `${network.chainId}:${address.toLowerCase()}`;
    if (this.#nonceRows.has(key)) return;
    const chainNonce = await network.client.getTransactionCount({ address, blockTag: 'pending' });
    await ensureNonceRow(this.platform.db, network.chainId, address, chainNonce);
    // Custodied wallets send too, one address per end user: a forgotten address costs one node call and
    // one no-op insert on its next send, instead of a set that grows without bound.
    addBounded(this.#nonceRows, key, MAX_KNOWN_NONCE_ROWS);
  }

  start(): void {
    this.#startedAt = Date.now();
    for (const network of this.platform.evm.all()) {
      const tracker = new ConfirmationTracker(this.platform.db, network, this.options.decodeRevert);
      this.#trackers.set(network.chainId, tracker);
      this.#loops.push(
        startPollLoop({
          intervalMs: this.options.pollIntervalMs ?? (network.hasDevnetFaucet ? 200 : 2000),
          tick: (first) => (this.#stopped ? Promise.resolve() : this.#tick(network, tracker, first)),
          onError: (error) =>
            this.platform.logger.warn(
              { chainId: network.chainId, err: (error as Error).message },
              'engine tick failed',
            ),
        }),
      );
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all(this.#loops.map((loop) => loop.stop()));
  }

  async #tick(network: EvmNetwork, tracker: ConfirmationTracker, first: boolean): Promise<void> {
    const head = await network.client.getBlockNumber({ cacheTime: 0 });
    let canonical = this.#canonical.get(network.chainId);
    if (!canonical) {
      canonical = new CanonicalChain(network);
      this.#canonical.set(network.chainId, canonical);
    }
    const forkPoint = await canonical.follow(head);
    let chainForgot = false;
    if (forkPoint !== undefined) {
      const reopened = await reopenMinedFrom(this.platform.db, network.chainId, forkPoint);
      tracker.rescanFrom(forkPoint);
      chainForgot = true;
      this.platform.logger.warn({ chainId: network.chainId, forkPoint, reopened }, 'reorg: blocks replaced');
    }
    const lastHead = this.#lastHead.get(network.chainId);
    if (lastHead !== undefined && head < lastHead) {
      // The chain went back (a node restored from a snapshot): what it lost is found by the nonces.
      tracker.rescanFrom(head + 1n);
      chainForgot = true;
      this.platform.logger.warn({ chainId: network.chainId, head, lastHead }, 'the chain went back');
    }
    if (lastHead === undefined || head > lastHead) this.#lastHead.set(network.chainId, head);
    else if (chainForgot) this.#lastHead.set(network.chainId, head);
    const nothingOpen = await tracker.scanNewBlocks(head);
    await this.#reconcile(network, tracker, first || chainForgot);
    const passDue = this.#recordPassDue(network.chainId, head);
    // The scan just found no open record: the look at the open records would list none either. One
    // written since is due by time only (a fresh send waits 5 s), so the next pass sees it in time.
    if (!first && !chainForgot && (!passDue || nothingOpen)) {
      await this.#fillGaps(network);
      return;
    }
    const recheckMs = network.hasDevnetFaucet ? 3_000 : 15_000;
    const openRows = await listTransactionsToCheck(this.platform.db, network.chainId, {
      insertedQuietMs: recheckMs,
      signedGraceMs: 5_000,
      startedAt: new Date(this.#startedAt),
      everything: first,
    });
    const now = Date.now();
    const lastChecked = this.#lastChecked.get(network.chainId) ?? new Map<string, number>();
    this.#lastChecked.set(network.chainId, lastChecked);
    const stuckAfter = this.options.stuckAfterMs ?? 30_000;
    for (const row of openRows) {
      if (this.#stopped) return;
      const age = now - new Date(row.created_at).getTime();
      const sinceBroadcast = row.last_broadcast_at
        ? now - new Date(row.last_broadcast_at).getTime()
        : Number.POSITIVE_INFINITY;
      if (row.state === 'processing' && row.block_number === null) {
        // Its block was reorged away: find it again, or put it back in the node's pool.
        if (!(await tracker.checkRecord(row, head)) && sinceBroadcast > 3_000)
          await this.#rebroadcast(network, row);
      } else if (row.state === 'processing') {
        await tracker.checkDepthAndReorgs([row], head);
      } else if (
        row.state === 'signed' &&
        (first || age > 5_000 || new Date(row.created_at).getTime() < this.#startedAt)
      ) {
        // Written but never confirmed as accepted: the process died mid-send, or the send is hanging.
        // Spaced by its last re-send, as a reorged record is: a node that refuses it (it may for minutes
        // before the record is failed) is not asked on every pass.
        if (!first && sinceBroadcast <= 3_000) continue;
        if (!(await tracker.checkRecord(row, head))) await this.#rebroadcast(network, row);
      } else if (row.state === 'inserted') {
        // Block scans find nearly everything; a receipt lookup per record is the fallback, so it is
        // spaced out (a slow network with thousands pending must not cost thousands of calls a tick).
        const lastCheck = lastChecked.get(row.id) ?? now - sinceBroadcast;
        if (!first && now - lastCheck < recheckMs) continue;
        lastChecked.set(row.id, now);
        if (await tracker.checkRecord(row, head)) continue;
        if (first) await this.#rebroadcast(network, row);
        else if (sinceBroadcast > stuckAfter) await this.#bumpFees(network, row);
      }
    }
    const open = new Set(openRows.map((row) => row.id));
    for (const id of lastChecked.keys()) if (!open.has(id)) lastChecked.delete(id);
    await this.#fillGaps(network);
  }

  /**
   * Whether the open records are worth a look in the store: on a new head (a record may have been
   * mined or gone deeper), and otherwise once a second. Between blocks a record only becomes due by
   * time, and its timers are seconds long (a fresh send waits 5 s, a receipt recheck 3 s), so looking
   * on every 200 ms devnet tick added nothing but four queries a second on an idle service.
   */
  #recordPassDue(chainId: number, head: bigint): boolean {
    const now = Date.now();
    const last = this.#lastRecordPass.get(chainId);
    if (last && last.head === head && now - last.at < RECORD_PASS_EVERY_MS) return false;
    this.#lastRecordPass.set(chainId, { head, at: now });
    return true;
  }

  /**
   * Compares the senders' stored nonces with the chain's and puts back what the chain lost: every
   * sender at start and after the chain went back or reorged, the recently active ones periodically.
   */
  async #reconcile(network: EvmNetwork, tracker: ConfirmationTracker, everyone: boolean): Promise<void> {
    const now = Date.now();
    const every = this.options.reconcileEveryMs ?? (network.hasDevnetFaucet ? 5_000 : 60_000);
    const last = this.#lastReconciled.get(network.chainId);
    // Senders whose last pass stopped at its bound (see `recoverSender`) go on at the next tick.
    const unfinished = this.#unfinishedRecoveries.get(network.chainId) ?? new Set<string>();
    this.#unfinishedRecoveries.set(network.chainId, unfinished);
    const due = everyone || last === undefined || now - last >= every;
    if (!due && unfinished.size === 0) return;
    let senders = await listSendersToReconcile(
      this.platform.db,
      network.chainId,
      everyone || !due ? undefined : new Date(now - 24 * 3600_000),
    );
    if (due) {
      this.#lastReconciled.set(network.chainId, now);
      if (everyone) forgetContractCode(network.chainId);
    } else senders = senders.filter((sender) => unfinished.has(sender.address));
    const context = this.#rebroadcastContext(tracker);
    for (const sender of senders) {
      if (this.#stopped) return;
      const result = await recoverSender(context, network, sender.address, BigInt(sender.next_nonce));
      if (result.more) unfinished.add(sender.address);
      else unfinished.delete(sender.address);
      if (result.reopened + result.failed + result.gaps > 0) {
        forgetContractCode(network.chainId);
        this.platform.logger.warn(
          { chainId: network.chainId, sender: sender.address, ...result },
          'recovered transactions the chain had lost',
        );
      }
    }
  }

  /** What a re-send needs; stored bytes refused for a max fee below the base fee are re-priced. */
  #rebroadcastContext(tracker: ConfirmationTracker): RebroadcastContext {
    return {
      db: this.platform.db,
      tracker,
      logger: this.platform.logger,
      refusedFailAfterSeconds: this.options.refusedFailAfterSeconds,
      reprice: async (network, row) =>
        (await this.#bumpFees(network, row)) ?? {
          kind: 'feeCapTooLow',
          message: 'max fee per gas less than block base fee, and the fee ceiling allows no more',
        },
    };
  }

  async #rebroadcast(network: EvmNetwork, row: TransactionRow): Promise<void> {
    const tracker = this.#trackers.get(network.chainId);
    if (!tracker) return;
    await rebroadcast(this.#rebroadcastContext(tracker), network, row);
  }

  /**
   * Re-signs a stuck transaction with the same nonce and fees raised above the node's replacement
   * minimum and the current fees, and gives it to the node. Undefined when it cannot (no key here, or
   * the network's fee ceiling reached).
   */
  async #bumpFees(network: EvmNetwork, row: TransactionRow): Promise<BroadcastOutcome | undefined> {
    const tracker = this.#trackers.get(network.chainId);
    if (!tracker) return undefined;
    if (row.nonce === null || row.max_fee_per_gas === null || row.max_priority_fee_per_gas === null)
      return undefined;
    const owner = await this.signers.forOwner(row.sender);
    if (!owner) return undefined;
    const fees = bumpedFees(
      {
        maxFeePerGas: BigInt(row.max_fee_per_gas),
        maxPriorityFeePerGas: BigInt(row.max_priority_fee_per_gas),
      },
      await this.fees.current(network),
    );
    if (network.maxFeePerGasWei !== undefined && fees.maxFeePerGas > network.maxFeePerGasWei) {
      if (BigInt(row.max_fee_per_gas) >= network.maxFeePerGasWei) return undefined;
      fees.maxFeePerGas = network.maxFeePerGasWei;
      if (fees.maxPriorityFeePerGas > fees.maxFeePerGas) fees.maxPriorityFeePerGas = fees.maxFeePerGas;
    }
    const { rawTx, txHash } = await signEip1559(owner.account, {
      chainId: network.chainId,
      nonce: BigInt(row.nonce),
      to: (row.to_address as Address | null) ?? null,
      value: BigInt(row.value),
      data: row.input,
      gas: BigInt(row.gas_limit ?? 0),
      ...fees,
    });
    const signed = { nonce: BigInt(row.nonce), gasLimit: BigInt(row.gas_limit ?? 0), ...fees, rawTx, txHash };
    await this.platform.db.transaction((tx) => replaceCurrentAttempt(tx, row.id, signed));
    this.platform.logger.info(
      { chainId: network.chainId, id: row.id, txHash: signed.txHash },
      'stuck transaction re-sent with higher fees',
    );
    // Without `reprice`: bytes signed at the current fees and refused again wait for a later pass.
    return rebroadcast({ ...this.#rebroadcastContext(tracker), reprice: undefined }, network, {
      ...row,
      raw_tx: rawTx,
    });
  }

  /** Fills nonce gaps that no new transaction reused, so later transactions are not stuck behind them. */
  async #fillGaps(network: EvmNetwork): Promise<void> {
    // A gap is filled once it is older than gapFillAfterMs, so looking every third of that is enough;
    // on the devnet's 200 ms ticks, looking on each was 5 statements a second on an idle service.
    const fillAfter = this.options.gapFillAfterMs ?? 3_000;
    const now = Date.now();
    if (now - (this.#lastGapLook.get(network.chainId) ?? 0) < Math.min(1_000, fillAfter / 3)) return;
    this.#lastGapLook.set(network.chainId, now);
    const gaps = await listOldGaps(this.platform.db, network.chainId, fillAfter);
    for (const gap of gaps) {
      const owner = await this.signers.forOwner(gap.address);
      if (!owner) continue;
      const chainNonce = await network.client.getTransactionCount({
        address: owner.account.address,
        blockTag: 'latest',
      });
      if (BigInt(chainNonce) > BigInt(gap.nonce)) {
        await claimGap(this.platform.db, gap);
        continue;
      }
      const current = await this.fees.current(network);
      const earlier = await highestFeesAtNonce(this.platform.db, network.chainId, gap.address, gap.nonce);
      // Above anything once signed for this nonce, so it replaces a copy a node may still hold.
      const fees = earlier ? bumpedFees(earlier, current) : current;
      // Claimed and re-used in one step: the explicit nonce path takes it from the gap table.
      try {
        await this.submit({
          applicationId: owner.applicationId,
          network,
          account: owner.account,
          kind: 'filler',
          to: owner.account.address,
          value: 0n,
          data: '0x',
          gasLimit: 21_000n,
          fees,
          nonce: BigInt(gap.nonce),
          myReference: null,
          specId: null,
          method: null,
        });
        this.platform.logger.info(
          { chainId: network.chainId, address: gap.address, nonce: gap.nonce },
          'nonce gap filled',
        );
      } catch (error) {
        this.platform.logger.warn(
          { chainId: network.chainId, nonce: gap.nonce, err: (error as Error).message },
          'gap fill failed',
        );
      }
    }
  }
}
