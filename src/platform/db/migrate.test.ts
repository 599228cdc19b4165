import { afterEach, describe, expect, inject, it } from 'vitest';
import { databaseFactories } from '../../../test/support/databases.ts';
import { createDatabase } from '../../../test/support/postgres-server.ts';
import type { Database } from './database.ts';
import { isUniqueViolation } from './database.ts';
import { listMigrations, MIGRATION_LOCK_ID, migrate, splitStatements } from './migrate.ts';
import { openPostgresDatabase } from './postgres-database.ts';

describe.each(databaseFactories)('migrations on $kind', (factory) => {
  let db: Database;
  afterEach(async () => db?.close());

  it('applies every migration once and records it', async () => {
    db = await factory.open();
    const all = listMigrations().map((m) => m.version);
    expect(await migrate(db)).toEqual(all);
    expect(await migrate(db)).toEqual([]);
    const rows = await db.query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(rows.map((r) => r.version)).toEqual(all);
  });

  it('rolls back a transaction that throws', async () => {
    db = await factory.open();
    await migrate(db);
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO settings (key, value) VALUES ('k', 'v')");
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db.query("SELECT * FROM settings WHERE key = 'k'")).toEqual([]);
  });

  it('reports a unique violation with its SQLSTATE', async () => {
    db = await factory.open();
    await migrate(db);
    await db.query("INSERT INTO settings (key, value) VALUES ('dup', '1')");
    const error = await db
      .query("INSERT INTO settings (key, value) VALUES ('dup', '2')")
      .catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('decodes bigint and numeric as strings, without losing precision', async () => {
    db = await factory.open();
    const [row] = await db.query<{ big: unknown; num: unknown }>(
      "SELECT 9007199254740993::int8 AS big, '123456789012345678901234567890'::numeric AS num",
    );
    expect(row).toEqual({ big: '9007199254740993', num: '123456789012345678901234567890' });
  });
});

describe('migrations on one PostgreSQL server from two processes at once', () => {
  it('serialise on an advisory lock: each version is applied exactly once', async () => {
    const url = await createDatabase(inject('postgresUrl'));
    const [a, b] = await Promise.all([openPostgresDatabase(url), openPostgresDatabase(url)]);
    try {
      const [appliedA, appliedB] = await Promise.all([migrate(a), migrate(b)]);
      // Numerically: a plain sort() puts 10 before 2.
      expect([...appliedA, ...appliedB].sort((x, y) => x - y)).toEqual(
        listMigrations().map((m) => m.version),
      );
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe("migrations and the store's statement deadline", () => {
  it('wait for another migrator for as long as it takes', async () => {
    const url = await createDatabase(inject('postgresUrl'));
    const other = await openPostgresDatabase(url);
    const db = await openPostgresDatabase(url, { timeoutMs: 200 });
    try {
      let release = () => {};
      let locked = () => {};
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      const otherMigrator = other.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
        locked();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await lockTaken;
      const applying = migrate(db);
      await new Promise((resolve) => setTimeout(resolve, 600));
      release();
      await otherMigrator;
      expect(await applying).toEqual(listMigrations().map((m) => m.version));
    } finally {
      await db.close();
      await other.close();
    }
  });
});

describe('splitStatements', () => {
  it('splits on semicolons at line ends and drops comments', () => {
    expect(splitStatements('-- c\nCREATE TABLE a (x int);\n\nCREATE INDEX i ON a (x);\n')).toEqual([
      'CREATE TABLE a (x int)',
      'CREATE INDEX i ON a (x)',
    ]);
  });
});
