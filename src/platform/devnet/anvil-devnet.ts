import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { processAlive, processNamed, waitForExit } from '../child-processes.ts';
import { DEVNET_CHAIN_ID } from '../config/known-chains.ts';
import { findFreePort, isPortFree } from '../net/free-port.ts';
import { superviseChild } from '../supervised-child.ts';
import { DevnetError, locateAnvilBinary } from './anvil-binary.ts';
import { DevnetSnapshots, stateToLoad } from './devnet-snapshots.ts';

export type AnvilDevnetOptions = {
  /** Directory for the chain state and pid file; undefined keeps the chain in memory only. */
  stateDir: string | undefined;
  host?: string;
  /** Preferred port; another free port is taken when it is busy. 0 = any. */
  port?: number;
  /** Seconds between blocks (interval mining); undefined mines a block per transaction. */
  blockTimeSeconds?: number;
  binary?: string;
  /** Least seconds between two state snapshots (default 1). */
  snapshotSeconds?: number;
  /** The EVM hardfork (anvil's `--hardfork`); anvil's latest by default. Tests use an older one. */
  hardfork?: string;
  onLog?: (line: string) => void;
};

/** What the pid file of a running devnet says, so a later start can save and stop an orphan. */
type PidFile = { pid: number; port?: number };

export type AnvilDevnet = {
  rpcUrl: string;
  port: number;
  /** The running anvil's (a restarted one has another). */
  readonly pid: number;
  /** The running state snapshots (undefined without a state dir). */
  snapshots: DevnetSnapshots | undefined;
  /** Saves the state one last time, stops anvil and waits for it to exit. */
  stop(): Promise<void>;
};

async function rpcAnswers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * An anvil left running by a server that died without stopping it (kill -9 of the server alone) still
 * holds the chain: save its state through its RPC, then stop it, so the new anvil starts from there.
 */
async function stopOrphan(pidFile: string, stateDir: string): Promise<void> {
  if (!existsSync(pidFile)) return;
  const text = readFileSync(pidFile, 'utf8').trim();
  let orphan: PidFile;
  try {
    orphan = text.startsWith('{') ? (JSON.parse(text) as PidFile) : { pid: Number(text) };
  } catch {
    orphan = { pid: 0 };
  }
  const { pid, port } = orphan;
  if (Number.isInteger(pid) && pid > 0 && processAlive(pid) && processNamed(pid, 'anvil')) {
    if (port)
      await new DevnetSnapshots({ rpcUrl: `http://127.0.0.1:${port}`, stateDir }).stop().catch(() => {});
    process.kill(pid, 'SIGTERM');
    for (let waited = 0; waited < 10_000 && processAlive(pid); waited += 50) await sleep(50);
    if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  rmSync(pidFile, { force: true });
}

/**
 * How many past blocks' states anvil may keep on disk. Anvil keeps the states of recent blocks (for
 * calls at a past block) in memory, 1,500 at first and then 10 with interval mining, and moves older ones
 * to disk: by default up to 3,600 of them, in `~/.foundry/anvil/tmp`, left behind when it stops. Every
 * empty block adds one, and each holds every block hash so far, so they grow with the chain: measured
 * with anvil 1.7, 2.2 GB after 6,000 blocks, and 70 GB (the disk full) while mining a day's 86,400.
 * With 16 a state is there for about the last 26 blocks, enough to replay a revert at its block (the
 * tracker does so when it sees the receipt); a call at an older block answers that the block is out
 * of range. Keeping them only in memory (`--prune-history`) is no way out: anvil's memory then grew by
 * ~350 KB a block. What still grows with the chain is anvil's own: ~140 B a block in each kept state.
 */
const PERSISTED_STATES = 16;

/** Where anvil keeps those states: in the state dir, emptied at every start and stop. */
function statesDir(stateDir: string): string {
  return join(stateDir, 'states');
}

/**
 * Starts the devnet (chain id 31337) and resolves once its RPC answers.
 *
 * With a state dir, an anvil that later dies on its own (killed, out of memory) is started again on the
 * same port from the last saved state: the chain forgets what came after that save (about a second),
 * which the engine recovers from as after a crash of the whole service. Without one the chain lived in
 * memory only, and nothing is restarted.
 */
export async function startAnvilDevnet(options: AnvilDevnetOptions): Promise<AnvilDevnet> {
  const binary = locateAnvilBinary(options.binary);
  const host = options.host ?? '127.0.0.1';
  const log = options.onLog ?? (() => {});
  const baseArgs = ['--host', host, '--chain-id', String(DEVNET_CHAIN_ID), '--silent'];
  if (options.blockTimeSeconds !== undefined) baseArgs.push('--block-time', String(options.blockTimeSeconds));
  baseArgs.push('--max-persisted-states', String(PERSISTED_STATES));
  if (options.hardfork !== undefined) baseArgs.push('--hardfork', options.hardfork);
  let pidFile: string | undefined;
  // Without a state dir the states go to a temporary dir of their own, removed like the state dir's.
  const states = options.stateDir
    ? statesDir(options.stateDir)
    : mkdtempSync(join(tmpdir(), 'chaingate-anvil-'));
  if (options.stateDir) {
    mkdirSync(options.stateDir, { recursive: true, mode: 0o700 });
    chmodSync(options.stateDir, 0o700);
    pidFile = join(options.stateDir, 'anvil.pid');
    await stopOrphan(pidFile, options.stateDir);
  }
  const preferred = options.port ?? 8545;
  const port = preferred !== 0 && (await isPortFree(preferred, host)) ? preferred : await findFreePort(host);
  const rpcUrl = `http://${host}:${port}`;

  /** Spawns anvil from the newest saved state and waits for its RPC; kills it if it does not come up. */
  const launch = async (): Promise<ChildProcess> => {
    const args = [...baseArgs];
    if (options.stateDir) {
      const load = stateToLoad(options.stateDir);
      if (load) args.push('--load-state', load);
      rmSync(states, { recursive: true, force: true });
    }
    args.push('--cache-path', states, '--port', String(port));
    const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
      log(chunk.toString().trim());
    });
    const spawnError = new Promise<never>((_, reject) => {
      child.once('error', (error) => reject(new DevnetError(`cannot start anvil: ${error.message}`)));
      child.once('exit', (code, signal) =>
        reject(
          new DevnetError(
            `anvil exited during start (${signal ?? `code ${code}`}): ${stderr.trim().split('\n').pop() ?? ''}`,
          ),
        ),
      );
    });
    // Once it has exited, the wait for its RPC stops too (a restart may fail many times).
    let gone = false;
    spawnError.catch(() => {
      gone = true;
    });
    const ready = (async () => {
      for (let waited = 0; waited < 30_000 && !gone; waited += 100) {
        if (await rpcAnswers(rpcUrl)) return;
        await sleep(100);
      }
      throw new DevnetError(`anvil did not answer on ${rpcUrl} within 30 s`);
    })();
    try {
      await Promise.race([ready, spawnError]);
    } catch (error) {
      child.kill('SIGKILL');
      rmSync(states, { recursive: true, force: true });
      throw error;
    }
    if (pidFile && child.pid)
      writeFileSync(pidFile, JSON.stringify({ pid: child.pid, port }), { mode: 0o600 });
    child.removeAllListeners('exit');
    return child;
  };

  const child = await launch();
  const snapshots = options.stateDir
    ? new DevnetSnapshots({
        rpcUrl,
        stateDir: options.stateDir,
        minIntervalMs: (options.snapshotSeconds ?? 1) * 1000,
        blockTimeSeconds: options.blockTimeSeconds,
        onError: options.onLog,
      })
    : undefined;
  snapshots?.start();

  // Restarted only from a saved state: an in-memory chain would come back empty.
  const supervised = options.stateDir
    ? superviseChild(child, { name: `the devnet's anvil (port ${port})`, start: launch, log })
    : undefined;
  const running = () => supervised?.child ?? child;

  // If this process exits without stop() (a test runner tearing down), do not leave anvil behind, nor
  // a temporary states dir (a state dir's is emptied by the next start).
  const killOnExit = () => {
    void supervised?.stopRestarts();
    running().kill('SIGTERM');
    if (!options.stateDir) rmSync(states, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  return {
    rpcUrl,
    port,
    get pid() {
      return running().pid ?? 0;
    },
    snapshots,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      // A start under way finishes (or fails) first, so the anvil it started is the one stopped here.
      await supervised?.stopRestarts();
      await snapshots
        ?.stop()
        .catch((error: Error) => options.onLog?.(`last devnet snapshot failed: ${error.message}`));
      const last = running();
      last.kill('SIGTERM');
      await waitForExit(last, 10_000);
      if (pidFile) rmSync(pidFile, { force: true });
      rmSync(states, { recursive: true, force: true });
    },
  };
}
