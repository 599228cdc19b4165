import pg from 'pg';
import type { Database, Queryable } from './database.ts';

/** A PostgreSQL server reached through `pg`'s connection pool. */
export async function openPostgresDatabase(
  connectionString: string,
  options: { maxConnections?: number } = {},
): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: options.maxConnections ?? 10 });
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
