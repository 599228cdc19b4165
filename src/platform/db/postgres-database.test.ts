import { describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../../test/support/postgres-server.ts';
import { startSilentServer } from '../../../test/support/silent-server.ts';
import { openPostgresDatabase } from './postgres-database.ts';

// pg waits forever by default, both for a new connection and for a free one. Each wait has a deadline
// now, and its error carries ETIMEDOUT, which the error table answers 503 (a dependency), not 500.
describe('openPostgresDatabase deadlines', () => {
  it('gives up on a server that accepts the connection and never answers', async () => {
    const silent = await startSilentServer();
    try {
      const failure = await openPostgresDatabase(`postgres://user:secret@127.0.0.1:${silent.port}/db`, {
        connectTimeoutMs: 300,
      }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect(failure).toMatchObject({ code: 'ETIMEDOUT' });
    } finally {
      await silent.close();
    }
  });

  it('gives up waiting for a free connection while every one is held', async () => {
    const url = await createDatabase(inject('postgresUrl'));
    const db = await openPostgresDatabase(url, { maxConnections: 1, connectTimeoutMs: 300 });
    let release = () => {};
    const held = db.transaction(() => new Promise<void>((resolve) => (release = resolve)));
    try {
      const failure = await db.query('SELECT 1').catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'ETIMEDOUT' });
    } finally {
      release();
      await held;
    }
    expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await db.close();
  });
});
