import pg from 'pg';
import { parseStoredJson } from '../json/lossless-json.ts';
import type { Database, Queryable } from './database.ts';
import { isStatementTimeout, markDatabaseFailure, markUnansweredCommit } from './database-failure.ts';

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

/** How long a new connection, a wait for a free one, or one statement may take by default. */
export const DATABASE_TIMEOUT_MS = 10_000;

/**
 * A PostgreSQL server reached through `pg`'s connection pool. Connecting, waiting for a free
 * connection, and each statement time out after `timeoutMs` (pg's default is to wait forever: a server
 * that drops packets held the start, a busy pool or a stalled server held every request). A statement
 * past its deadline closes its connection, so the server rolls its transaction back.
 */
export async function openPostgresDatabase(
  connectionString: string,
  options: { maxConnections?: number; timeoutMs?: number } = {},
): Promise<Database> {
  const timeoutMs = options.timeoutMs ?? DATABASE_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: timeoutMs,
    types,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const connect = () =>
    pool.connect().catch((error: unknown) => Promise.reject(markDatabaseFailure(error, timeoutMs)));
  const client = await connect();
  client.release();
  /** One statement; `deadlineMs` 0 waits as long as it takes. */
  const query = async <Row>(
    runner: pg.Pool | pg.PoolClient,
    sql: string,
    params: readonly unknown[] | undefined,
    deadlineMs: number,
  ) => {
    const config: pg.QueryConfig & { query_timeout?: number } = {
      text: sql,
      values: params as unknown[] | undefined,
    };
    if (deadlineMs > 0) config.query_timeout = deadlineMs;
    try {
      return (await runner.query(config)).rows as Row[];
    } catch (error) {
      throw markDatabaseFailure(error, deadlineMs);
    }
  };
  return {
    kind: 'postgres',
    query: (sql, params) => query(pool, sql, params, timeoutMs),
    transaction: async (work, transactionOptions = {}) => {
      const deadlineMs = transactionOptions.unbounded ? 0 : timeoutMs;
      const connection = await connect();
      // A statement that timed out is still running on the connection: it is closed, not reused.
      let broken: unknown;
      // The pool listens for a lost connection only while it is idle. Lost while held here between two
      // statements (the server restarted, a failover), pg reports it as an event, which with no listener
      // is an uncaught exception that ends the process. The next statement fails on it instead.
      const lost = (error: Error) => {
        broken ??= error;
      };
      connection.on('error', lost);
      try {
        await query(connection, 'BEGIN', undefined, deadlineMs);
        const scoped: Queryable = { query: (sql, params) => query(connection, sql, params, deadlineMs) };
        const result = await work(scoped);
        await query(connection, 'COMMIT', undefined, deadlineMs).catch((error: unknown) =>
          Promise.reject(markUnansweredCommit(error)),
        );
        return result;
      } catch (error) {
        broken = isStatementTimeout(error) ? error : undefined;
        if (!broken)
          await query(connection, 'ROLLBACK', undefined, deadlineMs).catch((rollback: unknown) => {
            broken = rollback;
          });
        throw error;
      } finally {
        connection.removeListener('error', lost);
        connection.release(broken as Error | undefined);
      }
    },
    exec: async (sql) => {
      await query(pool, sql, undefined, 0);
    },
    close: () => pool.end(),
  };
}
