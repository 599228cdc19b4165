import type { Queryable } from '../../platform/db/database.ts';

export type OpenRecordCounts = {
  chain_id: number;
  state: 'signed' | 'inserted' | 'processing';
  records: number;
  /** Of them, live records a node is refusing again (see `refused-resends.repository.ts`). */
  refused: number;
  /** Age of the oldest of them, in seconds (the store's clock). */
  oldest_seconds: number;
};

/** The open records per network and state, from the partial index on open states: read on a scrape. */
export async function countOpenRecords(db: Queryable): Promise<OpenRecordCounts[]> {
  return db.query<OpenRecordCounts>(
    `SELECT chain_id, state, count(*)::int AS records, count(refused_since)::int AS refused,
            extract(epoch FROM now() - min(created_at))::float8 AS oldest_seconds
       FROM evm_transactions WHERE state IN ('signed', 'inserted', 'processing')
      GROUP BY chain_id, state`,
  );
}
