import { describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../../test/support/postgres-server.ts';
import { startSilentServer } from '../../../test/support/silent-server.ts';
import { relayedDatabase } from '../../../test/support/stalling-relay.ts';
import { databaseFailureWords } from './database-failure.ts';
import { openPostgresDatabase } from './postgres-database.ts';

// pg waits forever by default: for a new connection, for a free one, and for a statement's answer.
// Each wait has a deadline now, and its error carries ETIMEDOUT, which the error table answers 503
// (a dependency), not 500.
describe('openPostgresDatabase deadlines', () => {
  it('gives up on a server that accepts the connection and never answers', async () => {
    const silent = await startSilentServer();
    try {
      const failure = await openPostgresDatabase(`postgres://user:secret@127.0.0.1:${silent.port}/db`, {
        timeoutMs: 300,
      }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect(failure).toMatchObject({ code: 'ETIMEDOUT' });
      expect(databaseFailureWords(failure)).toBe('the database did not answer within 0.3 s');
    } finally {
      await silent.close();
    }
  });

  it('gives up waiting for a free connection while every one is held', async () => {
    const url = await createDatabase(inject('postgresUrl'));
    const db = await openPostgresDatabase(url, { maxConnections: 1, timeoutMs: 1_000 });
    let release = () => {};
    let holding = () => {};
    const connectionHeld = new Promise<void>((resolve) => (holding = resolve));
    const held = db.transaction(
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
          holding();
        }),
    );
    await connectionHeld;
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

  it('gives up on a statement the server stalls under, and reconnects once it answers again', async () => {
    const { url, relay } = await relayedDatabase();
    const db = await openPostgresDatabase(url, { maxConnections: 1, timeoutMs: 1_000 });
    try {
      expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      relay.stall();
      const failure = await db.query('SELECT 2').catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'ETIMEDOUT', dependency: 'database' });
      expect(databaseFailureWords(failure)).toBe('the database did not answer within 1 s');
      relay.resume();
      // The stalled connection was closed, not handed to the next statement behind the stuck one.
      expect(await db.query<{ three: number }>('SELECT 3 AS three')).toEqual([{ three: 3 }]);
    } finally {
      await db.close();
      await relay.close();
    }
  });

  it('gives up on a transaction the server stalls under, and frees its connection', async () => {
    const { url, relay } = await relayedDatabase();
    const db = await openPostgresDatabase(url, { maxConnections: 1, timeoutMs: 1_000 });
    try {
      await db.query('CREATE TABLE notes (body text)');
      const failure = await db
        .transaction(async (tx) => {
          await tx.query("INSERT INTO notes VALUES ('kept only if committed')");
          relay.stall();
          await tx.query("INSERT INTO notes VALUES ('stalled')");
        })
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'ETIMEDOUT' });
      relay.resume();
      // With one connection, a stuck one handed back to the pool would time this out as well.
      expect(await db.query('SELECT body FROM notes')).toEqual([]);
    } finally {
      await db.close();
      await relay.close();
    }
  });

  it('says that a transaction may have been saved when its COMMIT got no answer, as it may', async () => {
    const { url, relay } = await relayedDatabase();
    const db = await openPostgresDatabase(url, { timeoutMs: 1_000 });
    try {
      await db.query('CREATE TABLE notes (body text)');
      relay.stallAfter('COMMIT');
      const failure = await db
        .transaction((tx) => tx.query("INSERT INTO notes VALUES ('committed, never confirmed')"))
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'ETIMEDOUT', unansweredCommit: true });
      expect(databaseFailureWords(failure)).toBe(
        'the database did not answer within 1 s when asked to commit, so the request may have been saved. A send or submission retried with the same Idempotency-Key header is answered with it if it was, and runs if it was not',
      );
      relay.resume();
      expect(await db.query('SELECT body FROM notes')).toEqual([{ body: 'committed, never confirmed' }]);
    } finally {
      await db.close();
      await relay.close();
    }
  });

  it('gives up on a statement that waits for a lock another session keeps', async () => {
    const url = await createDatabase(inject('postgresUrl'));
    const db = await openPostgresDatabase(url, { timeoutMs: 1_000 });
    try {
      await db.query(
        "CREATE TABLE counters (name text PRIMARY KEY, value int); INSERT INTO counters VALUES ('a', 0)",
      );
      let release = () => {};
      let locked = () => {};
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      const holder = db.transaction(async (tx) => {
        await tx.query("SELECT * FROM counters WHERE name = 'a' FOR UPDATE");
        locked();
        await new Promise<void>((resolve) => (release = resolve));
        await tx.query("UPDATE counters SET value = 1 WHERE name = 'a'");
      });
      await lockTaken;
      const failure = await db
        .transaction((tx) => tx.query("UPDATE counters SET value = 2 WHERE name = 'a'"))
        .catch((error: unknown) => error);
      release();
      await holder;
      expect(failure).toMatchObject({ code: 'ETIMEDOUT' });
      expect(await db.query('SELECT value FROM counters')).toEqual([{ value: 1 }]);
    } finally {
      await db.close();
    }
  });

  it('survives a connection lost while a transaction holds it between statements', async () => {
    const url = await createDatabase(inject('postgresUrl'));
    const db = await openPostgresDatabase(url, { timeoutMs: 2_000 });
    const other = await openPostgresDatabase(url, { timeoutMs: 2_000 });
    try {
      const failure = await db
        .transaction(async (tx) => {
          const [session] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
          // The server ends this session (a restart, a failover, an administrator) while the work is
          // between two statements: pg reports it as an event of the held connection, which had no
          // listener and crashed the process (an uncaught exception here).
          await other.query('SELECT pg_terminate_backend($1)', [session?.pid]);
          await new Promise((resolve) => setTimeout(resolve, 300));
          await tx.query('SELECT 1');
        })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      // The pool drops that connection and opens a new one.
      expect(await db.query<{ n: number }>('SELECT 1 AS n')).toEqual([{ n: 1 }]);
    } finally {
      await db.close();
      await other.close();
    }
  });
});
