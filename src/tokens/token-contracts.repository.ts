import type { Queryable } from '../platform/db/database.ts';

/** A contract deployed through the service, with the standard of its spec and its deploy transaction. */
export type DeployedTokenContractRow = {
  chain_id: number;
  address: string;
  application_id: string;
  alias: string | null;
  /** `standard_name` of the spec it was deployed with; null for an application's own spec. */
  standard: string | null;
  /** State of the deploy transaction. */
  state: string;
  tx_hash: string | null;
  block_number: string | null;
  created_at: Date;
};

const columns = `c.chain_id, c.address, c.application_id, c.alias, s.standard_name AS standard, t.state,
  t.tx_hash, t.block_number, c.created_at`;

export async function findDeployedTokenContract(
  db: Queryable,
  chainId: number,
  address: string,
): Promise<DeployedTokenContractRow | undefined> {
  const rows = await db.query<DeployedTokenContractRow>(
    `SELECT ${columns}
       FROM evm_contracts c
       JOIN contract_specs s ON s.id = c.spec_id
       JOIN evm_transactions t ON t.id = c.transaction_id
      WHERE c.chain_id = $1 AND c.address = $2`,
    [chainId, address.toLowerCase()],
  );
  return rows[0];
}

export type ListTokenContractsFilter = {
  applicationId: string;
  standard: string;
  chainId: number | undefined;
  limit: number;
  offset: number;
};

/** The application's contracts of one standard, newest first, and how many there are in all. */
export async function listApplicationTokenContracts(
  db: Queryable,
  filter: ListTokenContractsFilter,
): Promise<{ rows: DeployedTokenContractRow[]; total: number }> {
  const where = `c.application_id = $1 AND s.standard_name = $2 AND ($3::integer IS NULL OR c.chain_id = $3)`;
  const params = [filter.applicationId, filter.standard, filter.chainId ?? null];
  const rows = await db.query<DeployedTokenContractRow>(
    `SELECT ${columns}
       FROM evm_contracts c
       JOIN contract_specs s ON s.id = c.spec_id
       JOIN evm_transactions t ON t.id = c.transaction_id
      WHERE ${where}
      ORDER BY c.created_at DESC, c.address
      LIMIT $4 OFFSET $5`,
    [...params, filter.limit, filter.offset],
  );
  const count = await db.query<{ total: string }>(
    `SELECT count(*) AS total FROM evm_contracts c JOIN contract_specs s ON s.id = c.spec_id WHERE ${where}`,
    params,
  );
  return { rows, total: Number(count[0]?.total ?? 0) };
}
