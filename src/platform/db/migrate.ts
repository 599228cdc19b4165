import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../repo-root.ts';
import type { Database } from './database.ts';

export type Migration = { version: number; name: string; sql: string };

export function listMigrations(directory = join(repoRoot(), 'src/platform/db/migrations')): Migration[] {
  return readdirSync(directory)
    .filter((file) => /^\d{4}_.+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file,
      sql: readFileSync(join(directory, file), 'utf8'),
    }));
}

// Arbitrary constant: serialises concurrent migrators on one PostgreSQL server.
export const MIGRATION_LOCK_ID = 7_140_512_331;

/** Applies every migration not yet applied, each in its own transaction. Returns the versions applied. */
export async function migrate(db: Database, migrations = listMigrations()): Promise<number[]> {
  const applied: number[] = [];
  await db.transaction(
    async (tx) => {
      // Taken before anything else: even CREATE TABLE IF NOT EXISTS races between two migrators.
      if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
      await tx.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const done = new Set(
        (await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map(
          (row) => row.version,
        ),
      );
      for (const migration of migrations) {
        if (done.has(migration.version)) continue;
        for (const statement of splitStatements(migration.sql)) await tx.query(statement);
        await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
          migration.version,
          migration.name,
        ]);
        applied.push(migration.version);
      }
    },
    { unbounded: true },
  );
  return applied;
}

/** Splits a migration on `;` at line ends; migrations keep one statement per `;`-terminated block. */
export function splitStatements(sql: string): string[] {
  return sql
    .replace(/^\s*--.*$/gm, '')
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter(Boolean);
}
