import pg from 'pg';
import { parseStoredJson } from '../json/lossless-json.ts';
import type { Database, Queryable } from './database.ts';

const JSON_OID = 114;
const JSONB_OID = 3802;

/**
 * `pg`'s decoding, but json columns keep every digit of an integer beyond 2^53 (as a bigint) where
 * `JSON.parse` would round it. Scoped to this pool, not `pg`'s process-wide table.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    (oid === JSON_OID || oid === JSONB_OID) && format !== 'binary'
      ? parseStoredJson
      : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/** A PostgreSQL server reached through `pg`'s connection pool. */
export async function openPostgresDatabase(
  connectionString: string,
  options: { maxConnections?: number } = {},
): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: options.maxConnections ?? 10, types });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const client = await pool.connect();
  client.release();
  const query = async <Row>(runner: pg.Pool | pg.PoolClient, sql: string, params?: readonly unknown[]) =>
    (await runner.query(sql, params as unknown[] | undefined)).rows as Row[];
  return {
    kind: 'postgres',
    query: (sql, params) => query(pool, sql, params),
    transaction: async (work) => {
      const connection = await pool.connect();
      try {
        await connection.query('BEGIN');
        const scoped: Queryable = { query: (sql, params) => query(connection, sql, params) };
        const result = await work(scoped);
        await connection.query('COMMIT');
        return result;
      } catch (error) {
        await connection.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        connection.release();
      }
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}
