import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { type Address, encodeFunctionData, erc20Abi } from 'viem';
import { findFreePort } from '../src/platform/net/free-port.ts';
import { DEVNET_RPC_BATCH_SIZE } from '../src/platform/networks/evm-networks.ts';
import { createDatabase, startPostgresServer } from '../test/support/postgres-server.ts';
import { spawnServer, waitForHealthy } from '../test/support/server-process.ts';
import { buildServer, spawnCompiledServer, startScriptNodeFlags } from './build.ts';
import type { Cleanup } from './cleanup.ts';
import { alive, childPids, commandLine, storePids } from './processes.ts';

export type Credentials = {
  adminToken: string;
  applicationId: string;
  apiKey: string;
  sender: string;
  devnetRpcUrl: string;
};

export type ServiceUnderTest = {
  url: string;
  pid: number;
  anvilPid: number | undefined;
  credentials: Credentials;
  store: string;
  /** How the server was started: the compiled build (as `npm start`) or `src/main.ts` through tsx. */
  entry: string;
  output(): string;
};

/** The anvil the server spawned: tracked so it can be killed if the server is not. */
function findAnvilChild(pid: number): number | undefined {
  return childPids(pid).find((child) => commandLine(child).includes('anvil'));
}

/**
 * As root the test helper runs PostgreSQL under `runuser`, which does not pass SIGINT on (it expects
 * the terminal to deliver it to the whole session), so its `stop()` waits forever. The postgres
 * started under this process's runuser for that port gets the fast-shutdown signal directly.
 */
function stopOurPostgres(port: string): void {
  for (const wrapper of childPids(process.pid)) {
    if (!commandLine(wrapper).includes(`-p ${port} `)) continue;
    const postmaster = [...childPids(wrapper), wrapper].find((pid) =>
      commandLine(pid).split(' ')[0]?.endsWith('/postgres'),
    );
    if (postmaster !== undefined) process.kill(postmaster, 'SIGINT');
  }
}

/**
 * Starts chaingate as its own process on a fresh data dir with the devnet, on a throwaway PostgreSQL
 * server unless PGlite is asked for. By default it runs the compiled build, as `npm start` does: tsx
 * compiles in-process and its loader thread adds ~80 MB of RSS that a deployment does not carry. Everything it starts is registered for cleanup.
 */
export type StoreUnderTest = 'embedded' | 'external' | 'pglite';

export async function startServiceUnderTest(
  cleanup: Cleanup,
  options: { store: StoreUnderTest; tsx: boolean; blockTimeSeconds: number },
): Promise<ServiceUnderTest> {
  // Compiled first: tsc takes a few seconds and must not overlap the measurements.
  const compiledEntry = options.tsx ? undefined : await buildServer(cleanup);
  const dataDir = mkdtempSync(join(tmpdir(), 'chaingate-bench-'));
  cleanup.add('data dir', () => rmSync(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = {
    CHAINGATE_DATA_DIR: dataDir,
    CHAINGATE_DEVNET_BLOCK_TIME: String(options.blockTimeSeconds),
    CHAINGATE_DEVNET_PORT: '0',
    LOG_LEVEL: 'warn',
  };
  if (options.store === 'pglite') env.CHAINGATE_EMBEDDED_STORE = 'pglite';
  if (options.store === 'external') {
    const postgres = await startPostgresServer();
    cleanup.add('postgres', async () => {
      stopOurPostgres(new URL(postgres.url).port);
      await postgres.stop();
    });
    env.DATABASE_URL = await createDatabase(postgres.url, 'bench');
  }
  const port = await findFreePort();
  env.PORT = String(port);
  const url = `http://127.0.0.1:${port}`;
  const server = compiledEntry ? spawnCompiledServer(compiledEntry, env) : spawnServer(env);
  const pid = server.child.pid as number;
  let anvilPid: number | undefined;
  let storeProcesses: number[] = [];
  cleanup.add('server', async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
      // Unref'd: a pending 15 s timer would otherwise keep the bench alive after the server is gone.
      const stopped = await Promise.race([
        server.exited.then(() => true),
        sleep(15_000, undefined, { ref: false }).then(() => false),
      ]);
      if (!stopped) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
    }
    // The server stops its anvil and its store; what is left behind (server killed) is ended here.
    for (const leftover of [...(anvilPid === undefined ? [] : [anvilPid]), ...storeProcesses]) {
      if (alive(leftover)) process.kill(leftover, 'SIGKILL');
    }
  });
  await waitForHealthy(url, server, 90_000);
  anvilPid = findAnvilChild(pid);
  storeProcesses = storePids(pid);
  const credentialsFile = join(dataDir, 'credentials.json');
  for (let waited = 0; !existsSync(credentialsFile) && waited < 10_000; waited += 100) await sleep(100);
  const credentials = JSON.parse(readFileSync(credentialsFile, 'utf8')) as Credentials;
  return {
    url,
    pid,
    anvilPid,
    credentials,
    store:
      options.store === 'external'
        ? 'an external PostgreSQL server (throwaway local server, fsync off)'
        : options.store === 'pglite'
          ? 'PGlite (CHAINGATE_EMBEDDED_STORE=pglite)'
          : 'the embedded default (a PostgreSQL server run from the data dir)',
    entry: compiledEntry
      ? `compiled build (node ${startScriptNodeFlags().join(' ')} …/src/main.js, as npm start)`
      : 'src/main.ts through tsx',
    output: () => server.output(),
  };
}

/**
 * bench/minimal-proxy.ts as a child process forwarding balanceOf(holder) on `token` to `rpcUrl`, with
 * the devnet's batch size: the cheapest Node proxy possible, measured for comparison.
 */
export async function startMinimalProxy(
  cleanup: Cleanup,
  rpcUrl: string,
  token: string,
  holder: string,
): Promise<{ url: string; pid: number }> {
  const port = await findFreePort();
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [holder as Address] });
  const script = fileURLToPath(new URL('./minimal-proxy.ts', import.meta.url));
  const child = fork(script, [String(port), rpcUrl, token, data, String(DEVNET_RPC_BATCH_SIZE)], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  cleanup.add('minimal proxy', () => {
    child.kill('SIGKILL');
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`minimal proxy exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid as number };
}
