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

/** Snapshots are written at most this often, by default. */
const MIN_INTERVAL_MS = 1_000;
/** A dump may use at most 1/20 of the time between dumps (5 % of a core in anvil, at worst). */
const COST_FACTOR = 20;

export type DevnetSnapshotsOptions = {
  rpcUrl: string;
  stateDir: string;
  /** Least time between two snapshots (default 1 s). */
  minIntervalMs?: number;
  onError?: (message: string) => void;
};

async function rpc(url: string, method: string, timeoutMs = 30_000): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const answer = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

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
 * second or so of chain, which the engine then puts back from its store. A dump costs anvil time that
 * grows with the chain's history (measured: ~10 ms at 500 transactions, ~75 ms at 5,000), so the
 * interval grows with the cost: at least 1 s, and at least 20 × the last dump's duration. Only
 * blocks that changed since the last dump are worth one.
 */
export class DevnetSnapshots {
  #timer: NodeJS.Timeout | undefined;
  #busy: Promise<void> | undefined;
  #lastBlock: string | undefined;
  #notBefore = 0;
  /** Duration of the last dump, for the closing note's numbers and the interval. */
  lastDumpMs = 0;
  dumps = 0;

  constructor(private readonly options: DevnetSnapshotsOptions) {}

  get #minInterval(): number {
    return this.options.minIntervalMs ?? MIN_INTERVAL_MS;
  }

  start(): void {
    this.#timer = setInterval(() => void this.#maybeDump(), 250);
    this.#timer.unref();
  }

  async #maybeDump(): Promise<void> {
    if (this.#busy || Date.now() < this.#notBefore) return;
    this.#busy = (async () => {
      try {
        const block = String(await rpc(this.options.rpcUrl, 'eth_blockNumber', 5_000));
        if (block !== this.#lastBlock) await this.dumpNow(block);
      } catch (error) {
        this.options.onError?.(`devnet snapshot failed: ${(error as Error).message}`);
        this.#notBefore = Date.now() + this.#minInterval;
      }
    })().finally(() => {
      this.#busy = undefined;
    });
    await this.#busy;
  }

  /** Dumps the state now (also the last thing before a clean stop). */
  async dumpNow(block?: string): Promise<void> {
    const started = performance.now();
    const hex = String(await rpc(this.options.rpcUrl, 'anvil_dumpState'));
    writeAtomically(snapshotPath(this.options.stateDir), Buffer.from(hex.replace(/^0x/, ''), 'hex'));
    this.lastDumpMs = performance.now() - started;
    this.dumps++;
    if (block !== undefined) this.#lastBlock = block;
    this.#notBefore = Date.now() + Math.max(this.#minInterval, COST_FACTOR * this.lastDumpMs);
  }

  /** Stops the timer, waits for a dump under way and writes a last one. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#busy?.catch(() => {});
    await this.dumpNow();
  }
}
