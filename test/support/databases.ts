import { afterEach, beforeEach, inject } from 'vitest';
import type { Database } from '../../src/platform/db/database.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { openPgliteDatabase } from '../../src/platform/db/pglite-database.ts';
import { openPostgresDatabase } from '../../src/platform/db/postgres-database.ts';
import { insertTestApplication } from './applications.ts';
import { createDatabase } from './postgres-server.ts';

export type DatabaseFactory = { kind: 'pglite' | 'postgres'; open(): Promise<Database> };

/** Both store implementations, so store tests run against each (describe.each). */
export const databaseFactories: DatabaseFactory[] = [
  { kind: 'pglite', open: () => openPgliteDatabase(undefined) },
  { kind: 'postgres', open: async () => openPostgresDatabase(await createDatabase(inject('postgresUrl'))) },
];

/**
 * Inside a `describe.each(databaseFactories)`: a fresh migrated store holding one application for each
 * test, closed after it. Read its fields inside the tests (they are set before each).
 */
export function freshStoreWithApplication(factory: DatabaseFactory): { db: Database; applicationId: string } {
  const store = {} as { db: Database; applicationId: string };
  beforeEach(async () => {
    store.db = await factory.open();
    await migrate(store.db);
    store.applicationId = await insertTestApplication(store.db);
  });
  afterEach(async () => store.db?.close());
  return store;
}
