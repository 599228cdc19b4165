import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { SorobanBuildConfig } from '../../platform/config/build-config.ts';
import { MAX_WASM_BYTES } from '../spec/wasm-module.ts';
import { BoundedLog } from './bounded-log.ts';
import type { ProjectContract } from './builds.repository.ts';
import { sandboxCommand } from './sandbox-command.ts';

export type SandboxedBuildParameters = {
  /** The unpacked project, readable by the sandbox's user; mounted read-only. */
  projectDir: string;
  contracts: ProjectContract[];
  /** Aborted on shutdown: the sandbox is killed and the outcome is `interrupted`. */
  signal: AbortSignal;
};

export type SandboxedBuildOutcome =
  | { kind: 'built'; artifacts: Map<string, Buffer | { tooLarge: number }> }
  | { kind: 'failed'; exitCode: number | null; signal: NodeJS.Signals | null }
  | { kind: 'timed-out' }
  | { kind: 'interrupted' };

export type SandboxedBuildReturnType = { outcome: SandboxedBuildOutcome; log: string };

const LOG_LIMITS = { headBytes: 16 * 1024, tailBytes: 48 * 1024 };

/**
 * Reads the results channel (fd 3): `<library> <bytes>\n` then the bytes, for each wasm. A wasm over
 * the contract size limit is counted, not kept; anything malformed ends the reading.
 */
class ArtifactReader {
  readonly artifacts = new Map<string, Buffer | { tooLarge: number }>();
  #pending = Buffer.alloc(0);
  #current: { library: string; remaining: number; chunks: Buffer[]; keep: boolean } | undefined;
  #broken = false;

  push(chunk: Buffer): void {
    if (this.#broken) return;
    let data = this.#pending.length > 0 ? Buffer.concat([this.#pending, chunk]) : chunk;
    this.#pending = Buffer.alloc(0);
    while (data.length > 0) {
      if (!this.#current) {
        const newline = data.indexOf(0x0a);
        if (newline < 0) {
          if (data.length > 200) this.#broken = true;
          else this.#pending = Buffer.from(data);
          return;
        }
        const match = /^([A-Za-z0-9_]{1,64}) (\d{1,12})$/.exec(data.subarray(0, newline).toString('latin1'));
        if (!match) {
          this.#broken = true;
          return;
        }
        const size = Number(match[2]);
        this.#current = {
          library: match[1] as string,
          remaining: size,
          chunks: [],
          keep: size <= MAX_WASM_BYTES,
        };
        if (!this.#current.keep) this.artifacts.set(this.#current.library, { tooLarge: size });
        data = data.subarray(newline + 1);
      }
      const current = this.#current;
      const take = data.subarray(0, current.remaining);
      if (current.keep) current.chunks.push(Buffer.from(take));
      current.remaining -= take.length;
      data = data.subarray(take.length);
      if (current.remaining === 0) {
        if (current.keep) this.artifacts.set(current.library, Buffer.concat(current.chunks));
        this.#current = undefined;
      }
    }
  }
}

/**
 * Runs one build in the sandbox (`sandbox-command.ts`) under a wall-clock limit: past it, or on
 * shutdown, the whole process group is killed (bubblewrap's PID namespace takes every process of the
 * build with it). Answers the outcome and the bounded log of bubblewrap, cargo and the build scripts.
 */
export function runSandboxedBuild(
  settings: SorobanBuildConfig,
  parameters: SandboxedBuildParameters,
): Promise<SandboxedBuildReturnType> {
  const { command, args } = sandboxCommand(settings, {
    projectDir: parameters.projectDir,
    contracts: parameters.contracts,
    asRoot: process.getuid?.() === 0,
  });
  const log = new BoundedLog(LOG_LIMITS);
  const reader = new ArtifactReader();
  return new Promise((resolve) => {
    let timedOut = false;
    let interrupted = false;
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      detached: true,
      env: {},
    });
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, settings.timeoutSeconds * 1000);
    const onAbort = () => {
      interrupted = true;
      killGroup();
    };
    parameters.signal.addEventListener('abort', onAbort, { once: true });
    if (parameters.signal.aborted) onAbort();
    child.stdout?.on('data', (chunk: Buffer) => log.write(chunk));
    child.stderr?.on('data', (chunk: Buffer) => log.write(chunk));
    (child.stdio[3] as Readable | null)?.on('data', (chunk: Buffer) => reader.push(chunk));
    let settled = false;
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      parameters.signal.removeEventListener('abort', onAbort);
      let outcome: SandboxedBuildOutcome;
      if (interrupted) outcome = { kind: 'interrupted' };
      else if (timedOut) outcome = { kind: 'timed-out' };
      else if (exitCode === 0) outcome = { kind: 'built', artifacts: reader.artifacts };
      else outcome = { kind: 'failed', exitCode, signal };
      resolve({ outcome, log: log.text() });
    };
    child.on('error', (error) => {
      log.write(`chaingate: cannot start the sandbox (${command}): ${error.message}\n`);
      finish(null, null);
    });
    child.on('close', (exitCode, signal) => finish(exitCode, signal));
    // 'close' waits for the pipes; should anything still hold them once bubblewrap is gone, stop reading.
    child.on('exit', (exitCode, signal) => {
      setTimeout(() => {
        for (const stream of child.stdio) stream?.destroy();
        finish(exitCode, signal);
      }, 10_000).unref();
    });
  });
}
