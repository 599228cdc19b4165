import type { Queryable } from '../../platform/db/database.ts';

/** A contract deployed through the service, written with its deploy transaction (write-ahead). */
export type NewDeployedContract = {
  chainId: number;
  address: string;
  applicationId: string;
  specId: number;
  alias: string | null;
  transactionId: string;
};

export type DeployedContractRow = {
  chain_id: number;
  address: string;
  application_id: string;
  spec_id: number;
  alias: string | null;
  transaction_id: string;
  /** State of the deploy transaction. */
  state: string;
};

/** Inserts the contracts a group of deploys creates, in the caller's (signing) transaction. */
export async function insertDeployedContracts(
  db: Queryable,
  rows: readonly NewDeployedContract[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO evm_contracts (chain_id, address, application_id, spec_id, alias, transaction_id)
     SELECT * FROM unnest($1::integer[], $2::text[], $3::uuid[], $4::integer[], $5::text[], $6::uuid[])
     ON CONFLICT (chain_id, address) DO UPDATE
       SET application_id = EXCLUDED.application_id, spec_id = EXCLUDED.spec_id, alias = EXCLUDED.alias,
           transaction_id = EXCLUDED.transaction_id, created_at = now()`,
    [
      rows.map((r) => r.chainId),
      rows.map((r) => r.address.toLowerCase()),
      rows.map((r) => r.applicationId),
      rows.map((r) => r.specId),
      rows.map((r) => r.alias),
      rows.map((r) => r.transactionId),
    ],
  );
}

/** A deploy re-signed under another nonce creates its contract at another address. */
export async function moveDeployedContract(
  db: Queryable,
  transactionId: string,
  address: string,
): Promise<void> {
  await db.query('UPDATE evm_contracts SET address = $2 WHERE transaction_id = $1', [
    transactionId,
    address.toLowerCase(),
  ]);
}

export async function findDeployedContract(
  db: Queryable,
  chainId: number,
  address: string,
): Promise<DeployedContractRow | undefined> {
  const rows = await db.query<DeployedContractRow>(
    `SELECT c.*, t.state FROM evm_contracts c JOIN evm_transactions t ON t.id = c.transaction_id
      WHERE c.chain_id = $1 AND c.address = $2`,
    [chainId, address.toLowerCase()],
  );
  return rows[0];
}
