/**
 * A failure of the PostgreSQL server, as the pooled store marks it: the error keeps pg's own code
 * (a SQLSTATE, or a socket's ECONNREFUSED), and says which deadline passed when one did.
 */
export type DatabaseFailure = Error & {
  code?: string;
  dependency: 'database';
  timeoutMs?: number;
  /** The failure came after COMMIT was sent: the server may have committed before it went silent. */
  unansweredCommit?: boolean;
};

const DEADLINE_MESSAGES = [
  'Query read timeout', // pg: a statement past its query_timeout
  'timeout exceeded when trying to connect', // pg-pool: no free connection in time
  'Connection terminated due to connection timeout', // pg: the server did not complete the start-up
];

/** pg's words for a connection that broke under a statement (the server stopped, the socket closed). */
const BROKEN_CONNECTION = /^Connection terminated|^Client has encountered a connection error/;

/**
 * Marks an error of the pooled store. pg reports its deadlines and a broken connection without a code:
 * they get ETIMEDOUT and ECONNRESET, so the error table answers 503, not 500.
 */
export function markDatabaseFailure(error: unknown, timeoutMs: number): unknown {
  if (!(error instanceof Error)) return error;
  const marked = Object.assign(error, { dependency: 'database' as const });
  if ((error as { code?: unknown }).code) return marked;
  if (DEADLINE_MESSAGES.some((text) => error.message.includes(text)))
    Object.assign(marked, { code: 'ETIMEDOUT', timeoutMs });
  else if (BROKEN_CONNECTION.test(error.message)) Object.assign(marked, { code: 'ECONNRESET' });
  return marked;
}

/**
 * Marks a failed COMMIT whose answer never came (a deadline, a broken connection): the server may have
 * committed, so the client is told its request may have been saved. A refusal (a SQLSTATE such as a
 * serialization failure) is an answer, and means nothing was saved.
 */
export function markUnansweredCommit(error: unknown): unknown {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'ETIMEDOUT' || code === 'ECONNRESET' || code === 'EPIPE')
    Object.assign(error as object, { unansweredCommit: true });
  return error;
}

/** An error of the PostgreSQL store (pg's), whatever it was: a deadline, a broken connection, a SQLSTATE. */
export function isDatabaseFailure(error: unknown): error is DatabaseFailure {
  return (error as Partial<DatabaseFailure> | undefined)?.dependency === 'database';
}

/** A failed COMMIT that may have been carried out (see `markUnansweredCommit`). */
export function isUnansweredCommit(error: unknown): boolean {
  return isDatabaseFailure(error) && error.unansweredCommit === true;
}

export function isStatementTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === DEADLINE_MESSAGES[0];
}

/** How a client learns whether an unsure request was saved, without a second one. */
const UNSURE_ADVICE =
  'A send or submission retried with the same Idempotency-Key header is answered with it if it was, and runs if it was not';

/** What the client is told about a store that failed, or undefined for other errors. */
export function databaseFailureWords(error: unknown): string | undefined {
  const failure = error as Partial<DatabaseFailure> | undefined;
  if (failure?.dependency !== 'database') return undefined;
  if (failure.unansweredCommit)
    return `${
      failure.code === 'ETIMEDOUT'
        ? `the database did not answer within ${(failure.timeoutMs ?? 0) / 1000} s when asked to commit`
        : 'the database connection broke when asked to commit'
    }, so the request may have been saved. ${UNSURE_ADVICE}`;
  if (failure.code === 'ETIMEDOUT' && failure.timeoutMs)
    return `the database did not answer within ${failure.timeoutMs / 1000} s`;
  if (failure.code === 'ECONNREFUSED') return 'the database refused the connection';
  if (failure.code === '57P01' || failure.code === '57P03')
    return 'the database is shutting down or starting';
  return 'the database is unreachable';
}
