import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from '../../src/platform/repo-root.ts';

export type ServerProcess = {
  child: ChildProcess;
  output(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<number | string>;
};

/** Defaults every spawned server gets: devnet and Soroban on free ports, fast blocks. */
const serverDefaults = {
  CHAINGATE_DEVNET_PORT: '0',
  CHAINGATE_SOROBAN_PORT: '0',
  CHAINGATE_DEVNET_BLOCK_TIME: '0.2',
};

/** Runs a server entry point (`node <nodeArgs…>`) from the repository root and keeps its output. */
export function spawnServerProcess(
  nodeArgs: string[],
  env: Record<string, string>,
  options: { ownProcessGroup?: boolean } = {},
): ServerProcess {
  const child = spawn(process.execPath, nodeArgs, {
    cwd: repoRoot(),
    // Its own process group, so a test can kill the whole tree (server and anvil) at once.
    detached: options.ownProcessGroup ?? false,
    env: { ...process.env, ...serverDefaults, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return { child, output: () => stdout + stderr, stderr: () => stderr, exited };
}

/** Runs `src/main.ts` as its own process (as `npm start` would, without the build step). */
export function spawnServer(
  env: Record<string, string>,
  options: { ownProcessGroup?: boolean } = {},
): ServerProcess {
  return spawnServerProcess(
    ['--import', 'tsx', join(repoRoot(), 'src/main.ts')],
    { LOG_LEVEL: 'info', ...env },
    options,
  );
}

/** Polls `/health` until it answers 200; fails with the server's output if the process exits first. */
export async function waitForHealthy(url: string, server: ServerProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    try {
      if ((await fetch(`${url}/health`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`server not healthy within ${timeoutMs} ms:\n${server.output()}`);
}
