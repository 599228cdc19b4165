import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { findFreePort } from '../../src/platform/net/free-port.ts';

export type PostgresServer = { url: string; stop(): Promise<void> };

function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const version = versions.find((v) => existsSync(join(root, v, 'bin', 'postgres')));
  if (!version) {
    throw new Error(
      "PostgreSQL server binaries not found under /usr/lib/postgresql: run ./scripts/test (it installs Debian's postgresql)",
    );
  }
  return join(root, version, 'bin');
}

/**
 * A throwaway PostgreSQL server on a loopback port, its cluster in a temp dir. PostgreSQL refuses to
 * run as root, so as root it runs as the `postgres` user that Debian's package creates.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'chaingate-pg-'));
  const dataDir = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const runAs = (command: string, args: string[]) =>
    asRoot ? { cmd: 'runuser', args: ['-u', 'postgres', '--', command, ...args] } : { cmd: command, args };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const init = runAs(join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  execFileSync(init.cmd, init.args, { stdio: 'pipe' });
  const port = await findFreePort();
  const server = runAs(join(bin, 'postgres'), [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-h',
    '127.0.0.1',
    '-k',
    dir,
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=200',
  ]);
  const child = spawn(server.cmd, server.args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  for (let attempt = 0; ; attempt++) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      break;
    } catch {
      await client.end().catch(() => {});
      if (attempt > 200 || child.exitCode !== null) throw new Error(`PostgreSQL did not start: ${log}`);
      await sleep(100);
    }
  }
  return {
    url,
    stop: async () => {
      // runuser does not pass signals on to postgres, so ask pg_ctl (fast shutdown) to stop it.
      if (child.exitCode === null) {
        const stop = runAs(join(bin, 'pg_ctl'), ['-D', dataDir, 'stop', '-m', 'fast', '-w', '-t', '20']);
        try {
          execFileSync(stop.cmd, stop.args, { stdio: 'ignore' });
        } catch {
          child.kill('SIGKILL');
        }
        await Promise.race([new Promise((resolve) => child.once('exit', resolve)), sleep(5000)]);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new empty database on the server, so test files never share state. */
export async function createDatabase(serverUrl: string, prefix = 'cg'): Promise<string> {
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
