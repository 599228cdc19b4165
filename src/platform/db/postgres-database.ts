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

/** How long a new connection, or a wait for a free one, may take by default. */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * pg-pool's deadline errors carry no code: given ETIMEDOUT, they are a dependency that did not answer
 * (503), not an internal error.
 */
function withTimeoutCode(error: unknown): unknown {
  if (
    error instanceof Error &&
    !(error as { code?: unknown }).code &&
    /timeout exceeded when trying to connect|due to connection timeout/.test(error.message)
  )
    Object.assign(error, { code: 'ETIMEDOUT' });
  return error;
}

/**
 * A PostgreSQL server reached through `pg`'s connection pool. Connecting, and waiting for a free
 * connection, time out after `connectTimeoutMs` (pg's default is to wait forever: a server that drops
 * packets held the start, or every request once the pool was busy).
 */
export async function openPostgresDatabase(
  connectionString: string,
  options: { maxConnections?: number; connectTimeoutMs?: number } = {},
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    types,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const connect = () => pool.connect().catch((error: unknown) => Promise.reject(withTimeoutCode(error)));
  const client = await connect();
  client.release();
  const query = async <Row>(runner: pg.Pool | pg.PoolClient, sql: string, params?: readonly unknown[]) => {
    try {
      return (await runner.query(sql, params as unknown[] | undefined)).rows as Row[];
    } catch (error) {
      throw withTimeoutCode(error);
    }
  };
  return {
    kind: 'postgres',
    query: (sql, params) => query(pool, sql, params),
    transaction: async (work) => {
      const connection = await connect();
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
      await query(pool, sql);
    },
    close: () => pool.end(),
  };
}
