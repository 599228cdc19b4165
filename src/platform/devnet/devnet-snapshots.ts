import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type Http1Error, Http1Pool } from '../networks/http1-pool.ts';

/** Snapshots are written at most this often, by default. */
const MIN_INTERVAL_MS = 1_000;
/** A dump may use at most 1/20 of the time between dumps (5 % of a core in anvil, at worst). */
const COST_FACTOR = 20;
/**
 * Blocks without transactions are saved at most this often, by default. They hold nothing the
 * service wrote, a crash that loses some is the "chain forgot" case the engine already handles, and a
 * dump of a long chain every second kept anvil at ~5 % of a core on an idle laptop (measured after
 * 8,000 transfers: 40–50 ms of anvil CPU per second while nothing happened).
 */
const QUIET_INTERVAL_MS = 60_000;
/**
 * Blocks without transactions are saved only once they add at least 1/10 to the chain saved last. A
 * dump holds every block so far (~1.6 KB each, measured with anvil 1.7.1), so on a long-running devnet
 * a dump a minute grew without bound: after a day of 1 s blocks each dump took ~1 s of anvil and
 * wrote 12 MB, 17 GB a day. Growing by tenths, a quiet day writes about 11 dumps' worth, and a crash
 * loses at most a tenth of the chain's empty blocks.
 */
const QUIET_GROWTH_DIVISOR = 10n;
/** Tries of the last dump at a clean stop, each of which a block with transactions may spoil. */
const LAST_DUMP_ATTEMPTS = 5;
/**
 * Bytes a second that dumps of transactions may write on average, by default. A dump holds the whole
 * chain, so on a devnet under steady traffic the cost cap alone let a day-old chain write a 12 MB dump
 * every ~20 s (50 GB a day). With 100 KB/s such a dump waits ~2 minutes (at most ~8.6 GB a day); a
 * crash then rewinds that far, and the engine puts those transactions back from its store. A young
 * chain's dumps are small and keep the 1 s interval. A state change announced with `markDirty()` (the
 * faucet's funding, which no stored transaction repeats) is saved without waiting for the budget.
 */
const BYTES_PER_SECOND = 100_000;
/** Most blocks inspected one by one since the last look; a longer stretch is saved without looking. */
const MAX_BLOCKS_INSPECTED = 32;

export type DevnetSnapshotsOptions = {
  rpcUrl: string;
  stateDir: string;
  /** Least time between two snapshots (default 1 s). */
  minIntervalMs?: number;
  /** Least time between two snapshots when only empty blocks came (default 60 s). */
  quietIntervalMs?: number;
  /** Average bytes a second the dumps may write, except those `markDirty()` asks for (default 100 KB). */
  bytesPerSecond?: number;
  /**
   * The devnet's seconds per block. A whole number has its mining held during each dump (see
   * `#holdMining`); a fraction, or none, is never held.
   */
  blockTimeSeconds?: number;
  onError?: (message: string) => void;
};

type RpcCall = { method: string; params?: unknown[] };

/**
 * One JSON-RPC batch over the snapshots' own kept-alive socket. Not `fetch`: its Request objects, web
 * streams and `AbortSignal.timeout` (whose timer later builds a DOMException with a stack) were about a
 * tenth of an idle service's CPU, for a look once a second.
 */
async function rpcBatch(pool: Http1Pool, calls: RpcCall[], timeoutMs: number): Promise<unknown[]> {
  const request = JSON.stringify(
    calls.map((call, id) => ({ jsonrpc: '2.0', id, method: call.method, params: call.params ?? [] })),
  );
  // A kept-alive socket the node closed while idle fails before any answer: one retry on a new one.
  const { body } = await pool
    .post(request, timeoutMs)
    .catch((error: Http1Error) => (error.retryable ? pool.post(request, timeoutMs) : Promise.reject(error)));
  const answers = JSON.parse(body) as Array<{
    id: number;
    result?: unknown;
    error?: { message: string };
  }>;
  if (!Array.isArray(answers)) throw new Error('the node did not answer the batch with a list');
  return calls.map((call, id) => {
    const answer = answers.find((entry) => entry.id === id);
    if (!answer || answer.error) throw new Error(`${call.method}: ${answer?.error?.message ?? 'no answer'}`);
    return answer.result;
  });
}

async function rpc(
  pool: Http1Pool,
  method: string,
  params: unknown[] = [],
  timeoutMs = 30_000,
): Promise<unknown> {
  return (await rpcBatch(pool, [{ method, params }], timeoutMs))[0];
}

type BlockHeader = { number: string; hash: string; parentHash: string; transactions: unknown[] };
type ChainHead = { number: bigint; hash: string };

const headOf = (block: BlockHeader): ChainHead => ({ number: BigInt(block.number), hash: block.hash });

/** Where the devnet's state lives: our gzip snapshot, written atomically. */
function snapshotPath(stateDir: string): string {
  return join(stateDir, 'state.json.gz');
}

/**
 * The state file anvil should start from, as a path for `--load-state`: the newest of our snapshot
 * (unpacked next to it, since anvil reads plain JSON only) and a `state.json` anvil itself wrote.
 */
export function stateToLoad(stateDir: string): string | undefined {
  const ours = snapshotPath(stateDir);
  const anvils = join(stateDir, 'state.json');
  const oursTime = existsSync(ours) ? statSync(ours).mtimeMs : -1;
  const anvilsTime = existsSync(anvils) ? statSync(anvils).mtimeMs : -1;
  if (oursTime < 0 && anvilsTime < 0) return undefined;
  if (anvilsTime > oursTime) return anvils;
  const unpacked = join(stateDir, 'load-state.json');
  writeAtomically(unpacked, gunzipSync(readFileSync(ours)));
  return unpacked;
}

/** Writes a file so that a crash leaves either the old or the new content, never half of one. */
function writeAtomically(path: string, data: Uint8Array): void {
  const temporary = `${path}.tmp-${process.pid}`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

/**
 * Saves the devnet's chain state (`anvil_dumpState`, gzip) to the data dir while it runs, so a
 * crash of the whole process tree (kill -9 of server and anvil together) loses at most the last
 * second or so of transactions, which the engine then puts back from its store. A dump costs anvil time
 * that grows with the chain's history (measured: ~10 ms at 500 transactions, ~75 ms at 5,000), so the
 * interval grows with the cost: at least 1 s, and at least 20 × the last dump's duration. Dumps of
 * transactions also keep to a byte budget (`BYTES_PER_SECOND`), which spaces them out on an old chain.
 *
 * What is worth a dump: a block with transactions, a chain that did not simply grow (a reorg, a
 * reset, a stretch too long to inspect), or a state change made outside a transaction that the
 * service announces with `markDirty()` (the faucet's `anvil_setBalance`). Blocks without
 * transactions alone are saved at most once a minute, and only once they add a tenth to the chain saved
 * last. Cheat codes someone else sends to the devnet's port are saved with the next dump, not on their
 * own.
 */
export class DevnetSnapshots {
  #timer: NodeJS.Timeout | undefined;
  #busy: Promise<void> | undefined;
  /** No dump before this (the cost cap), and none but an announced change's before the byte budget's. */
  #notBefore = 0;
  #notBeforeBudget = 0;
  /** A change announced with `markDirty()` not yet saved: it does not wait for the byte budget. */
  #announced = false;
  /** The newest block the last look saw (undefined before the first look). */
  #seen: ChainHead | undefined;
  /** The newest block seen before the last dump. */
  #saved: ChainHead | undefined;
  /** Something not yet saved: true until this process dumped once. */
  #dirty = true;
  #lastDumpAt = 0;
  /** Duration of the last dump, for the closing note's numbers and the interval. */
  lastDumpMs = 0;
  dumps = 0;
  /** Dumps not kept because a block with transactions came while anvil dumped (see `dumpNow`). */
  straddledDumps = 0;
  /** The interval of a hold of the mining not yet ended (see `#holdMining`). */
  #heldSince: number | undefined;

  /** The newest block the last dump holds, as far as its look before the dump saw. */
  get savedBlock(): bigint | undefined {
    return this.#saved?.number;
  }

  readonly #pool: Http1Pool;

  constructor(private readonly options: DevnetSnapshotsOptions) {
    this.#pool = new Http1Pool(new URL(options.rpcUrl), { maxSockets: 1 });
  }

  get #minInterval(): number {
    return this.options.minIntervalMs ?? MIN_INTERVAL_MS;
  }

  start(): void {
    this.#timer = setInterval(() => void this.#maybeDump(), 250);
    this.#timer.unref();
  }

  /** The node's state changed outside a transaction (the faucet set a balance): save it soon. */
  markDirty(): void {
    this.#dirty = true;
    this.#announced = true;
  }

  async #maybeDump(): Promise<void> {
    if (this.#busy || Date.now() < this.#notBefore) return;
    this.#busy = (async () => {
      try {
        // A hold of the mining whose end failed is ended at once, not at the next dump (the byte budget
        // may put that minutes away, with the devnet unmined meanwhile).
        if (this.#heldSince !== undefined) await this.#endHold(this.#heldSince);
        await this.#look();
        const quietDue =
          this.#grewEnough() &&
          Date.now() - this.#lastDumpAt >= (this.options.quietIntervalMs ?? QUIET_INTERVAL_MS);
        const budgetAllows = this.#announced || Date.now() >= this.#notBeforeBudget;
        if ((this.#dirty || quietDue) && budgetAllows) await this.dumpNow();
        else this.#notBefore = Date.now() + this.#minInterval;
      } catch (error) {
        this.options.onError?.(`devnet snapshot failed: ${(error as Error).message}`);
        this.#notBefore = Date.now() + this.#minInterval;
      }
    })().finally(() => {
      this.#busy = undefined;
    });
    await this.#busy;
  }

  /** Whether the empty blocks since the last dump add a tenth to the chain it saved (see above). */
  #grewEnough(): boolean {
    const seen = this.#seen;
    const saved = this.#saved;
    if (seen === undefined || seen.hash === saved?.hash) return false;
    if (saved === undefined) return true;
    const added = seen.number - saved.number;
    return added >= 1n && added * QUIET_GROWTH_DIVISOR >= saved.number;
  }

  /** Reads the chain's head and marks the state dirty if a block since the last look needs saving. */
  async #look(): Promise<void> {
    const latest = await this.#latest();
    const seen = this.#seen;
    this.#seen = headOf(latest);
    if (seen !== undefined && !(await this.#onlyEmptyBlocksSince(seen, latest))) this.#dirty = true;
  }

  async #latest(): Promise<BlockHeader> {
    return (await rpc(this.#pool, 'eth_getBlockByNumber', ['latest', false], 5_000)) as BlockHeader;
  }

  /** Whether the chain went from `from` to `latest` by adding blocks without transactions only. */
  async #onlyEmptyBlocksSince(from: ChainHead, latest: BlockHeader): Promise<boolean> {
    if (latest.hash === from.hash) return true;
    const gap = BigInt(latest.number) - from.number;
    if (latest.transactions.length > 0 || gap < 1n || gap > BigInt(MAX_BLOCKS_INSPECTED)) return false;
    // The blocks between `from` and `latest`, oldest first, then `latest`: each must have its parent in
    // the one before, and none may carry a transaction.
    const numbers = Array.from({ length: Number(gap) - 1 }, (_, index) => from.number + 1n + BigInt(index));
    const between = (
      numbers.length === 0
        ? []
        : await rpcBatch(
            this.#pool,
            numbers.map((n) => ({ method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, false] })),
            5_000,
          )
    ) as BlockHeader[];
    let parent = from.hash;
    for (const block of [...between, latest]) {
      if (block === null || block.parentHash !== parent || block.transactions.length > 0) return false;
      parent = block.hash;
    }
    return true;
  }

  /**
   * Stops interval mining for a dump and answers the interval to start it again with. Under steady
   * traffic every block has transactions, and a dump longer than a block (a chain of ~80,000 transfers
   * dumps ~50 MB) was never kept. `evm_setIntervalMining` takes whole seconds only, so a devnet mining
   * faster (the suite's, every 0.2 s) is not held; nor is one that mines on demand, or whose interval
   * is not the configured one (someone changed it).
   */
  async #holdMining(): Promise<number | undefined> {
    // A hold whose end failed (anvil busy past the deadline) is ended first: left as it was, this look
    // would find the interval not the configured one, hold nothing, and leave the devnet unmined.
    if (this.#heldSince !== undefined) await this.#endHold(this.#heldSince);
    const blockTime = this.options.blockTimeSeconds;
    if (blockTime === undefined || !Number.isInteger(blockTime) || blockTime <= 0) return undefined;
    // Mining someone changed through the devnet's port (a test holding blocks back) is left as it is.
    if ((await rpc(this.#pool, 'anvil_getIntervalMining')) !== blockTime) return undefined;
    this.#heldSince = blockTime;
    await rpc(this.#pool, 'evm_setIntervalMining', [0]);
    return blockTime;
  }

  /** Gives the devnet its interval back; until that succeeds, the hold stays owed (`#heldSince`). */
  async #endHold(interval: number): Promise<void> {
    await rpc(this.#pool, 'evm_setIntervalMining', [interval]);
    this.#heldSince = undefined;
  }

  /**
   * Dumps the state now, and answers whether it was saved. A dump during which a block with transactions
   * was mined is not: anvil reads its list of blocks, then its accounts, each under a lock of its own, so
   * such a dump may hold the block's effects without the block. Restored, that chain had moved the tokens
   * of a dozen transfers with no transaction or receipt to show for them, and the engine, finding their
   * nonces used and no receipt, ended them ERROR_NONCE_CONFLICT (found by `npm run chaos`). Empty blocks
   * change no account, so dumps across them are kept. Mining every whole number of seconds is held for
   * the dump (a block already being mined may still land in it).
   */
  async dumpNow(): Promise<boolean> {
    const started = performance.now();
    // Cleared before the dump: a change announced while it runs may not be in it, so it stays owed.
    const wasDirty = this.#dirty;
    const wasAnnounced = this.#announced;
    this.#dirty = false;
    this.#announced = false;
    let bytes = 0;
    let head: ChainHead;
    let consistent: boolean;
    try {
      let hex: string;
      const heldInterval = await this.#holdMining();
      try {
        const before = await this.#latest();
        head = headOf(before);
        hex = String(await rpc(this.#pool, 'anvil_dumpState'));
        consistent = await this.#onlyEmptyBlocksSince(head, await this.#latest());
      } finally {
        if (heldInterval) await this.#endHold(heldInterval);
      }
      if (consistent) {
        const gzipped = Buffer.from(hex.replace(/^0x/, ''), 'hex');
        writeAtomically(snapshotPath(this.options.stateDir), gzipped);
        bytes = gzipped.length;
      }
    } catch (error) {
      this.#dirty ||= wasDirty;
      this.#announced ||= wasAnnounced;
      throw error;
    }
    this.lastDumpMs = performance.now() - started;
    // A dump kept or not cost anvil the same: the next waits as long either way.
    this.#notBefore = Date.now() + Math.max(this.#minInterval, COST_FACTOR * this.lastDumpMs);
    if (!consistent) {
      this.#dirty = true;
      this.#announced ||= wasAnnounced;
      this.straddledDumps++;
      return false;
    }
    this.dumps++;
    this.#saved = head;
    this.#lastDumpAt = Date.now();
    this.#notBeforeBudget = Date.now() + (1000 * bytes) / (this.options.bytesPerSecond ?? BYTES_PER_SECOND);
    return true;
  }

  /**
   * Stops the timer, waits for a dump under way, writes a last one and closes the connection. A last
   * dump that met a block with transactions is tried again, a few times.
   */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#busy?.catch(() => {});
    try {
      for (let attempt = 1; !(await this.dumpNow()); attempt++) {
        if (attempt === LAST_DUMP_ATTEMPTS)
          throw new Error(
            'blocks with transactions kept coming during the dump: the saved state is an earlier one',
          );
      }
    } finally {
      this.#pool.close();
    }
  }
}
