import { BlockNotFoundError, type Hex, hexToBigInt, numberToHex } from 'viem';
import type { Database } from '../../platform/db/database.ts';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';
import { isMethodUnsupported, noneAsNull } from '../../platform/networks/node-failure.ts';
import {
  findMinedCandidates,
  findTransactionsByIds,
  type MinedCandidate,
  type MinedRecord,
  recordMinedBatch,
} from './mined-records.repository.ts';
import type { TransactionRow } from './transaction-record.ts';
import { hasOpenTransactions, listAttemptHashes, reopenRecord } from './transactions.repository.ts';

type RpcReceipt = {
  transactionHash: Hex;
  blockHash: Hex;
  blockNumber: Hex;
  status: Hex;
  gasUsed: Hex;
  effectiveGasPrice?: Hex;
};

/** Blocks one scan reads at most; a tracker further behind catches up over the next ticks. */
const BLOCKS_PER_SCAN = 100n;

export type RevertDecoder = (row: TransactionRow, receipt: { blockNumber: bigint }) => Promise<string>;

/**
 * Follows `inserted → processing → confirmed | evmError` for one network. New blocks are read whole
 * (`eth_getBlockReceipts`: one call per block however many of our transactions it holds); open records
 * are also checked one by one, which catches what happened while the service was down.
 */
export class ConfirmationTracker {
  #lastScanned: bigint | undefined;
  #blockReceiptsSupported = true;

  constructor(
    private readonly db: Database,
    private readonly network: EvmNetwork,
    private readonly decodeRevert: RevertDecoder,
  ) {}

  /** Blocks from `block` on are read again on the next scan (they were reorged). */
  rescanFrom(block: bigint): void {
    if (this.#lastScanned !== undefined && this.#lastScanned >= block) this.#lastScanned = block - 1n;
  }

  /**
   * Reads the blocks after the last one read, up to the head and a hundred at most, for receipts of
   * open records. Answers true when it asked the store and no record was open on the network (the
   * caller's look at the open records would find none either).
   */
  async scanNewBlocks(head: bigint): Promise<boolean> {
    if (this.#lastScanned === undefined) this.#lastScanned = head - 1n;
    if (this.#lastScanned >= head) return false;
    if (!this.#blockReceiptsSupported) {
      this.#lastScanned = head;
      return false;
    }
    // With no record open on the network none of the new blocks can hold one of ours, so they are
    // passed over unread: a record is written before it is broadcast, and the head was read before
    // this look, so a record this look misses can only be mined in a later block. On a public network
    // an idle service would otherwise download every block's receipts.
    if (!(await hasOpenTransactions(this.db, this.network.chainId))) {
      this.#lastScanned = head;
      return true;
    }
    // Far behind (a long pass of re-sends held the ticks for minutes), the scan catches up a hundred
    // blocks a tick. It used to jump to the last hundred: the blocks jumped over were read by nobody, and
    // their records waited for the one-by-one checks, 2,000 a pass (after a chaos run's deep rewind,
    // most of ~200,000 re-sent records stayed open for minutes after they were mined).
    const from = this.#lastScanned + 1n;
    const to = head - from >= BLOCKS_PER_SCAN ? from + BLOCKS_PER_SCAN - 1n : head;
    for (let block = from; block <= to; block++) {
      let receipts: RpcReceipt[] | null;
      try {
        receipts = (await this.network.client.request({
          method: 'eth_getBlockReceipts' as never,
          params: [numberToHex(block)] as never,
        })) as RpcReceipt[] | null;
      } catch (error) {
        // A node without the method gets the per-record lookups from now on. Any other failure (a
        // timeout, a rate limit) is retried from this block on the next scan: before, one of them
        // turned block scans off for the life of the process.
        if (isMethodUnsupported(error)) this.#blockReceiptsSupported = false;
        return false;
      }
      await this.#applyReceipts(receipts ?? [], head);
      this.#lastScanned = block;
    }
    return false;
  }

  async #applyReceipts(receipts: RpcReceipt[], head: bigint): Promise<void> {
    if (receipts.length === 0) return;
    const candidates = await findMinedCandidates(
      this.db,
      receipts.map((r) => r.transactionHash),
    );
    const byHash = new Map(receipts.map((r) => [r.transactionHash.toLowerCase(), r]));
    const found: Array<{ row: MinedCandidate; receipt: RpcReceipt }> = [];
    for (const row of candidates) {
      const receipt = byHash.get(row.attempt_hash.toLowerCase());
      if (receipt) found.push({ row, receipt });
    }
    await this.#record(found, head);
  }

  /** Checks an open record's every attempt for a receipt (after a restart, or when block scans lag). */
  async checkRecord(row: TransactionRow, head: bigint): Promise<boolean> {
    for (const hash of await listAttemptHashes(this.db, row.id)) {
      const receipt = (await this.network.client.request({
        method: 'eth_getTransactionReceipt',
        params: [hash],
      })) as RpcReceipt | null;
      if (receipt) {
        await this.#applyFound([{ transactionId: row.id, receipt }], head);
        return true;
      }
    }
    return false;
  }

  /** Stores what receipts found for records checked on their own say, read from their current rows. */
  async #applyFound(
    items: Array<{ transactionId: string; receipt: RpcReceipt }>,
    head: bigint,
  ): Promise<void> {
    const rows = new Map(
      (
        await findTransactionsByIds(
          this.db,
          items.map((item) => item.transactionId),
        )
      ).map((row) => [row.id, row]),
    );
    const found: Array<{ row: MinedCandidate; receipt: RpcReceipt }> = [];
    for (const { transactionId, receipt } of items) {
      const row = rows.get(transactionId);
      if (row) found.push({ row: { ...row, attempt_hash: receipt.transactionHash }, receipt });
    }
    await this.#record(found, head);
  }

  /** Stores what the receipts say, a block's worth in one database transaction. */
  async #record(items: Array<{ row: MinedCandidate; receipt: RpcReceipt }>, head: bigint): Promise<void> {
    const records: MinedRecord[] = [];
    const reverted: Array<{ record: MinedRecord; blockNumber: bigint }> = [];
    for (const { row, receipt } of items) {
      const blockNumber = hexToBigInt(receipt.blockNumber);
      const depth = head - blockNumber + 1n;
      const failed = receipt.status === '0x0';
      const deep = depth >= BigInt(this.network.confirmations) || this.network.confirmations === 0;
      const state = !deep ? 'processing' : failed ? 'evmError' : 'confirmed';
      if (row.state === state && row.block_hash === receipt.blockHash) continue;
      const record: MinedRecord = {
        id: row.id,
        sender: row.sender,
        nonce: row.nonce,
        state,
        txHash: receipt.transactionHash.toLowerCase() as Hex,
        blockNumber,
        blockHash: receipt.blockHash,
        gasUsed: hexToBigInt(receipt.gasUsed),
        effectiveGasPrice: receipt.effectiveGasPrice ? hexToBigInt(receipt.effectiveGasPrice) : 0n,
        error: null,
      };
      records.push(record);
      if (failed) reverted.push({ record, blockNumber });
    }
    if (records.length === 0) return;
    if (reverted.length > 0) {
      // Only a revert needs the whole row (calldata, spec) to decode its reason.
      const rows = new Map(
        (
          await findTransactionsByIds(
            this.db,
            reverted.map(({ record }) => record.id),
          )
        ).map((row) => [row.id, row]),
      );
      for (const { record, blockNumber } of reverted) {
        const row = rows.get(record.id);
        const message = row ? await this.decodeRevert(row, { blockNumber }) : 'execution reverted';
        record.error = { code: 'ERROR_EVM_REVERTED', message };
      }
    }
    await this.db.transaction((tx) => recordMinedBatch(tx, this.network.chainId, records, 'ERROR_REPLACED'));
  }

  /**
   * Records waiting for depth: confirm them when deep enough. Any record in a block that is no longer
   * canonical (a reorg) goes back to processing without a block, and its receipt is looked up again.
   */
  async checkDepthAndReorgs(rows: TransactionRow[], head: bigint): Promise<void> {
    for (const row of rows) {
      if (row.block_number === null || row.block_hash === null) continue;
      // Only a block the node says it does not have is gone; a failed read (a timeout, a gateway's
      // 5xx, a rate limit) is thrown, and the record keeps its block until a later tick reads it.
      const block = await this.network.client
        .getBlock({ blockNumber: BigInt(row.block_number) })
        .catch(noneAsNull(BlockNotFoundError));
      if (!block || block.hash !== row.block_hash) {
        await reopenRecord(this.db, row.id);
        await this.checkRecord({ ...row, state: 'processing' }, head);
        continue;
      }
      if (row.state === 'processing') await this.checkRecord(row, head);
    }
  }
}
