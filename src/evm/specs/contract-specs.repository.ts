import type { Abi } from 'viem';
import type { Queryable } from '../../platform/db/database.ts';

export type ContractSpecRow = {
  id: number;
  name: string;
  description: string;
  abi: Abi;
  bytecode: string | null;
  owner_application_id: string | null;
  shared: boolean;
  audited: boolean;
  standard_name: string | null;
};

/** Inserts or refreshes a standard contract as a shared, audited spec; ids stay stable across restarts. */
export async function upsertStandardSpec(
  db: Queryable,
  spec: { name: string; description: string; abi: Abi; bytecode: string },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO contract_specs (name, description, abi, bytecode, shared, audited, standard_name)
     VALUES ($1, $2, $3, $4, true, true, $1)
     ON CONFLICT (standard_name) DO UPDATE
       SET description = EXCLUDED.description, abi = EXCLUDED.abi, bytecode = EXCLUDED.bytecode
     RETURNING id`,
    [spec.name, spec.description, JSON.stringify(spec.abi), spec.bytecode],
  );
  return (rows[0] as { id: number }).id;
}

export async function insertOwnedSpec(
  db: Queryable,
  spec: { applicationId: string; name: string; description: string; abi: Abi; bytecode: string | null },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO contract_specs (name, description, abi, bytecode, owner_application_id, shared, audited)
     VALUES ($1, $2, $3, $4, $5, false, false) RETURNING id`,
    [spec.name, spec.description, JSON.stringify(spec.abi), spec.bytecode, spec.applicationId],
  );
  return (rows[0] as { id: number }).id;
}

/** Shared specs and the application's own, oldest first. */
export async function listVisibleSpecs(db: Queryable, applicationId: string): Promise<ContractSpecRow[]> {
  return db.query<ContractSpecRow>(
    'SELECT * FROM contract_specs WHERE shared OR owner_application_id = $1 ORDER BY id',
    [applicationId],
  );
}

/** A spec the application may use (shared or its own); another application's spec is never returned. */
export async function findVisibleSpec(
  db: Queryable,
  applicationId: string,
  id: number,
): Promise<ContractSpecRow | undefined> {
  const rows = await db.query<ContractSpecRow>(
    'SELECT * FROM contract_specs WHERE id = $1 AND (shared OR owner_application_id = $2)',
    [id, applicationId],
  );
  return rows[0];
}

export async function findStandardSpec(
  db: Queryable,
  standardName: string,
): Promise<ContractSpecRow | undefined> {
  const rows = await db.query<ContractSpecRow>('SELECT * FROM contract_specs WHERE standard_name = $1', [
    standardName,
  ]);
  return rows[0];
}
