import { mkdirSync } from 'node:fs';
import { PGlite, types } from '@electric-sql/pglite';
import { parseStoredJson } from '../json/lossless-json.ts';
import type { Database, Queryable } from './database.ts';

// Same decoding as the `pg` driver: int8 and numeric as strings, json with bigints, so no precision
// is lost silently.
const parsers = {
  [types.INT8]: (value: string) => value,
  [types.NUMERIC]: (value: string) => value,
  [types.JSON]: parseStoredJson,
  [types.JSONB]: parseStoredJson,
};

/** Embedded PostgreSQL (PGlite) persisted under `directory`. */
export async function openPgliteDatabase(directory: string | undefined): Promise<Database> {
  if (directory) mkdirSync(directory, { recursive: true });
  const db = await PGlite.create(directory, { parsers });
  const query = async <Row>(runner: Pick<PGlite, 'query'>, sql: string, params?: readonly unknown[]) =>
    (await runner.query<Row>(sql, params as unknown[] | undefined)).rows;
  return {
    kind: 'pglite',
    query: (sql, params) => query(db, sql, params),
    transaction: (work) =>
      db.transaction((tx) => {
        const scoped: Queryable = { query: (sql, params) => query(tx, sql, params) };
        return work(scoped);
      }),
    exec: async (sql) => {
      await db.exec(sql);
    },
    close: () => db.close(),
  };
}
