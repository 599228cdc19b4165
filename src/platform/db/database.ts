/**
 * The store, as the rest of chaingate sees it: parameterised queries and transactions. Two
 * implementations share one set of SQL migrations: embedded PGlite and a PostgreSQL server (`pg`).
 */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

export type TransactionOptions = {
  /**
   * No deadline on its statements: a migration waits for another process's migration to finish, and
   * may build an index on a large table. Every other statement has the store's deadline.
   */
  unbounded?: boolean;
};

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one database transaction; rolls back if it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Runs a script of several statements (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

/** Unique-violation SQLSTATE, for idempotency enforced by constraints. */
const UNIQUE_VIOLATION = '23505';

/** A unique violation; of the named constraint or unique index, when one is given. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const found = error as { code?: string; constraint?: string } | undefined;
  return found?.code === UNIQUE_VIOLATION && (constraint === undefined || found.constraint === constraint);
}
