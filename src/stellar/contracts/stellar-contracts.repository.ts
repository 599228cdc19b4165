import type { Queryable } from '../../platform/db/database.ts';

export type StellarContractRow = {
  network_id: number;
  address: string;
  application_id: string;
  spec_id: number;
  salt: string;
  transaction_id: string;
  created_at: Date;
};

export async function insertDeployedContracts(
  tx: Queryable,
  rows: ReadonlyArray<{
    networkId: number;
    address: string;
    applicationId: string;
    specId: number;
    salt: string;
    transactionId: string;
  }>,
): Promise<void> {
  for (const row of rows) {
    await tx.query(
      `INSERT INTO stellar_contracts (network_id, address, application_id, spec_id, salt, transaction_id)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (network_id, address) DO NOTHING`,
      [row.networkId, row.address, row.applicationId, row.specId, row.salt, row.transactionId],
    );
  }
}

export async function findDeployedContract(
  db: Queryable,
  networkId: number,
  address: string,
): Promise<StellarContractRow | undefined> {
  const rows = await db.query<StellarContractRow>(
    'SELECT * FROM stellar_contracts WHERE network_id = $1 AND address = $2',
    [networkId, address],
  );
  return rows[0];
}
