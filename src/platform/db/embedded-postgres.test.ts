import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded-postgres.ts';

const directory = mkdtempSync(join(tmpdir(), 'cg-embedded-pg-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function count(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('CREATE TABLE IF NOT EXISTS kept (n integer)');
    await client.query('INSERT INTO kept VALUES (1)');
    return Number((await client.query('SELECT count(*) AS n FROM kept')).rows[0].n);
  } finally {
    await client.end();
  }
}

/** `count`, tried until the server accepts connections again (60 s at most). */
async function countOnceBack(url: string): Promise<number> {
  for (let waited = 0; ; waited += 200) {
    try {
      return await count(url);
    } catch (error) {
      if (waited > 60_000) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

it('runs a PostgreSQL server on a Unix socket from the data dir, keeps its data, and is started again after a kill -9', {
  timeout: 120_000,
}, async () => {
  const first = await startEmbeddedPostgres({ directory });
  expect(first.url).toContain('host=');
  expect(await count(first.url)).toBe(1);
  expect(existsSync(join(directory, 'cluster', 'PG_VERSION'))).toBe(true);
  // Private files, whatever user the server runs as.
  expect(statSync(join(directory, 'cluster')).mode & 0o077).toBe(0);
  expect(statSync(join(directory, 'cluster', 'PG_VERSION')).mode & 0o077).toBe(0);
  await first.stop();

  const second = await startEmbeddedPostgres({ directory });
  expect(await count(second.url)).toBe(2);
  // Killed under a running service: started again, on the same socket, recovering from its WAL.
  const killed = second.pid;
  process.kill(killed, 'SIGKILL');
  expect(await countOnceBack(second.url)).toBe(3);
  // It takes connections a moment before the start is through and the handle knows its new process.
  while (second.pid === killed) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(readFileSync(join(directory, 'cluster', 'postmaster.pid'), 'utf8').split('\n')[0]).toBe(
    String(second.pid),
  );
  await second.stop();
  expect(existsSync(join(directory, 'cluster', 'postmaster.pid'))).toBe(false);

  const third = await startEmbeddedPostgres({ directory });
  expect(await count(third.url)).toBe(4);
  await third.stop();
});
