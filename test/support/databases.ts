import { inject } from 'vitest';
import type { Database } from '../../src/platform/db/database.ts';
import { openPgliteDatabase } from '../../src/platform/db/pglite-database.ts';
import { openPostgresDatabase } from '../../src/platform/db/postgres-database.ts';
import { createDatabase } from './postgres-server.ts';

export type DatabaseFactory = { kind: 'pglite' | 'postgres'; open(): Promise<Database> };

/** Both store implementations, so store tests run against each (describe.each). */
export const databaseFactories: DatabaseFactory[] = [
  { kind: 'pglite', open: () => openPgliteDatabase(undefined) },
  { kind: 'postgres', open: async () => openPostgresDatabase(await createDatabase(inject('postgresUrl'))) },
];
