import { type Address, type Hex, keccak256 } from 'viem';
import type { EvmNetwork } from '../../platform/chains/evm-networks.ts';
import type { Platform } from '../../platform/platform.ts';
import { classifyBroadcastError } from './broadcast-errors.ts';
import { BroadcastMarks } from './broadcast-marks.ts';
import { CanonicalChain } from './canonical-chain.ts';
import { ConfirmationTracker, type RevertDecoder } from './confirmation-tracker.ts';
import { errorCodes } from './engine-errors.ts';
import { bumpedFees, FeeOracle } from './fee-oracle.ts';
import { GroupCommit } from './group-commit.ts';
import { claimGap, ensureNonceRow, listOldGaps } from './nonce-allocator.ts';
import { Signers } from './signers.ts';
import {
  type SigningItem,
  type SubmitTransactionParameters,
  signAndStoreGroup,
  submitTransaction,
} from './submit-transaction.ts';
import type { TransactionRow } from './transaction-record.ts';
import type { SignedFields } from './transactions.repository.ts';
import {
  failSignedTransaction,
  listTransactionsToCheck,
  markBroadcast,
  recordDeployedContract,
  reopenMinedFrom,
  replaceCurrentAttempt,
} from './transactions.repository.ts';

export type TxEngineOptions = {
  /** How often each network is polled. */
  pollIntervalMs?: number;
  /** An inserted transaction not mined after this long is re-sent with higher fees. */
  stuckAfterMs?: number;
  /** A nonce gap older than this is filled with a zero-value self-transfer. */
  gapFillAfterMs?: number;
  decodeRevert: RevertDecoder;
};

/**
 * The transaction engine: write-ahead sends, store-allocated nonces, and one maintenance loop per
 * network that tracks confirmations, rebroadcasts what the node may have lost, re-sends stuck
 * transactions with higher fees and fills nonce gaps.
 */
export class TxEngine {
  readonly fees = new FeeOracle();
  readonly signers: Signers;
  readonly #trackers = new Map<number, ConfirmationTracker>();
  readonly #canonical = new Map<number, CanonicalChain>();
  readonly #nonceRows = new Set<string>();
  /** Per network: when each open record's receipt was last looked up one by one. */
  readonly #lastChecked = new Map<number, Map<string, number>>();
  readonly #timers: NodeJS.Timeout[] = [];
  #stopped = false;
  #startedAt = Date.now();

  constructor(
    private readonly platform: Platform,
    private readonly options: TxEngineOptions,
  ) {
    this.signers = new Signers(platform);
    this.#signing = new GroupCommit(platform.db, signAndStoreGroup);
    this.#marks = new BroadcastMarks(platform.db);
  }

  readonly #signing: GroupCommit<SigningItem, SignedFields>;
  readonly #marks: BroadcastMarks;

  submit(parameters: SubmitTransactionParameters) {
    return submitTransaction(
      {
        db: this.platform.db,
        signing: this.#signing,
        marks: this.#marks,
        ensureNonceRow: (network, address) => this.#ensureNonceRow(network, address),
      },
      parameters,
    );
  }

  async #ensureNonceRow(network: EvmNetwork, address: Address): Promise<void> {
    const key = `${network.chainId}:${address.toLowerCase()}`;
    if (this.#nonceRows.has(key)) return;
    const chainNonce = await network.client.getTransactionCount({ address, blockTag: 'pending' });
    await ensureNonceRow(this.platform.db, network.chainId, address, chainNonce);
    this.#nonceRows.add(key);
  }

  start(): void {
    this.#startedAt = Date.now();
    for (const network of this.platform.evm.all()) {
      const tracker = new ConfirmationTracker(this.platform.db, network, this.options.decodeRevert, (row) =>
        this.#recordContract(row),
      );
      this.#trackers.set(network.chainId, tracker);
      const interval = this.options.pollIntervalMs ?? (network.hasDevnetFaucet ? 200 : 2000);
      let running = false;
      let ticks = 0;
      const timer = setInterval(() => {
        if (running || this.#stopped) return;
        running = true;
        this.#tick(network, tracker, ticks++ === 0)
          .catch((error) =>
            this.platform.logger.warn(
              { chainId: network.chainId, err: (error as Error).message },
              'engine tick failed',
            ),
          )
          .finally(() => {
            running = false;
          });
      }, interval);
      this.#timers.push(timer);
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const timer of this.#timers) clearInterval(timer);
  }

  async #recordContract(row: TransactionRow): Promise<void> {
    if (!row.contract_address || row.spec_id === null) return;
    await recordDeployedContract(this.platform.db, {
      chainId: row.chain_id,
      address: row.contract_address,
      applicationId: row.application_id,
      specId: row.spec_id,
      alias: null,
      transactionId: row.id,
    });
  }

  async #tick(network: EvmNetwork, tracker: ConfirmationTracker, first: boolean): Promise<void> {
    const head = await network.client.getBlockNumber({ cacheTime: 0 });
    let canonical = this.#canonical.get(network.chainId);
    if (!canonical) {
      canonical = new CanonicalChain(network);
      this.#canonical.set(network.chainId, canonical);
    }
    const forkPoint = await canonical.follow(head);
    if (forkPoint !== undefined) {
      const reopened = await reopenMinedFrom(this.platform.db, network.chainId, forkPoint);
      tracker.rescanFrom(forkPoint);
      this.platform.logger.warn({ chainId: network.chainId, forkPoint, reopened }, 'reorg: blocks replaced');
    }
    await tracker.scanNewBlocks(head);
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

  async #rebroadcast(network: EvmNetwork, row: TransactionRow): Promise<void> {
    if (!row.raw_tx) return;
    try {
      await network.client.request({ method: 'eth_sendRawTransaction', params: [row.raw_tx] });
      await markBroadcast(this.platform.db, row.id, true);
    } catch (error) {
      const outcome = classifyBroadcastError(error);
      // Counted as an attempt either way, so a refused rebroadcast is retried every few seconds, not every tick.
      await markBroadcast(this.platform.db, row.id, outcome.kind === 'accepted');
      if (outcome.kind !== 'accepted') {
        this.platform.logger.warn({ chainId: network.chainId, id: row.id, outcome }, 'rebroadcast refused');
      }
      if (outcome.kind === 'insufficientFunds' && row.state === 'signed') {
        await failSignedTransaction(this.platform.db, row, {
          code: errorCodes.insufficientFunds,
          message: outcome.message,
        });
      } else if (outcome.kind === 'nonceTooLow') {
        // Its nonce is used on chain; the receipt check above found none of its hashes, so another
        // transaction took it. Re-checked next tick before giving up.
        const head = await network.client.getBlockNumber({ cacheTime: 0 });
        const tracker = this.#trackers.get(network.chainId);
        if (tracker && !(await tracker.checkRecord(row, head))) {
          await failSignedTransaction(
            this.platform.db,
            { ...row, nonce: null },
            {
              code: errorCodes.nonceConflict,
              message: `nonce ${row.nonce} was used by another transaction`,
            },
          );
        }
      }
    }
  }

  /** Re-signs a stuck transaction with the same nonce and fees raised above the node's replacement minimum. */
  async #bumpFees(network: EvmNetwork, row: TransactionRow): Promise<void> {
    if (row.nonce === null || row.max_fee_per_gas === null || row.max_priority_fee_per_gas === null) return;
    const owner = await this.signers.forOwner(row.sender);
    if (!owner) return;
    const fees = bumpedFees(
      {
        maxFeePerGas: BigInt(row.max_fee_per_gas),
        maxPriorityFeePerGas: BigInt(row.max_priority_fee_per_gas),
      },
      await this.fees.current(network),
    );
    if (network.maxFeePerGasWei !== undefined && fees.maxFeePerGas > network.maxFeePerGasWei) {
      if (BigInt(row.max_fee_per_gas) >= network.maxFeePerGasWei) return;
      fees.maxFeePerGas = network.maxFeePerGasWei;
      if (fees.maxPriorityFeePerGas > fees.maxFeePerGas) fees.maxPriorityFeePerGas = fees.maxFeePerGas;
    }
    const rawTx = await owner.account.signTransaction({
      chainId: network.chainId,
      type: 'eip1559',
      nonce: Number(row.nonce),
      to: (row.to_address as Address | null) ?? null,
      value: BigInt(row.value),
      data: row.input,
      gas: BigInt(row.gas_limit ?? 0),
      ...fees,
    });
    const signed = {
      nonce: BigInt(row.nonce),
      gasLimit: BigInt(row.gas_limit ?? 0),
      ...fees,
      rawTx,
      txHash: keccak256(rawTx) as Hex,
    };
    await this.platform.db.transaction((tx) => replaceCurrentAttempt(tx, row.id, signed));
    this.platform.logger.info(
      { chainId: network.chainId, id: row.id, txHash: signed.txHash },
      'stuck transaction re-sent with higher fees',
    );
    await this.#rebroadcast(network, { ...row, raw_tx: rawTx });
  }

  /** Fills nonce gaps that no new transaction reused, so later transactions are not stuck behind them. */
  async #fillGaps(network: EvmNetwork): Promise<void> {
    const gaps = await listOldGaps(this.platform.db, network.chainId, this.options.gapFillAfterMs ?? 3_000);
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
      const fees = await this.fees.current(network);
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
