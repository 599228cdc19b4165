import type { Queryable } from '../../src/platform/db/database.ts';

export type StoredTransaction = {
  state: string;
  tx_hash: string;
  block_number: string | null;
  block_hash: string | null;
};

/** The stored record of the EVM transaction signed with `txHash` (any of its attempts), read from the store. */
export async function storedTransaction(
  db: Queryable,
  txHash: string,
): Promise<StoredTransaction | undefined> {
  const rows = await db.query<StoredTransaction>(
    `SELECT t.state, t.tx_hash, t.block_number, t.block_hash FROM evm_transactions t
       JOIN evm_transaction_attempts a ON a.transaction_id = t.id WHERE a.tx_hash = $1`,
    [txHash],
  );
  return rows[0];
}
