import type { Queryable } from '../../platform/db/database.ts';

export type StellarSpecRow = {
  id: number;
  application_id: string;
  name: string;
  description: string;
  wasm: Uint8Array;
  wasm_hash: string;
  spec_xdr: string;
  created_at: Date;
};

export async function insertStellarSpec(
  db: Queryable,
  row: {
    applicationId: string;
    name: string;
    description: string;
    wasm: Buffer;
    wasmHash: string;
    specXdr: string;
  },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO stellar_contract_specs (application_id, name, description, wasm, wasm_hash, spec_xdr)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [row.applicationId, row.name, row.description, row.wasm, row.wasmHash, row.specXdr],
  );
  return (rows[0] as { id: number }).id;
}

/** The saved contract only if it belongs to `applicationId`: another application's is never returned. */
export async function findApplicationSpec(
  db: Queryable,
  applicationId: string,
  id: number,
): Promise<StellarSpecRow | undefined> {
  const rows = await db.query<StellarSpecRow>(
    'SELECT * FROM stellar_contract_specs WHERE application_id = $1 AND id = $2',
    [applicationId, id],
  );
  return rows[0];
}

/** Spec only (no wasm), for decoding transactions of contracts deployed from it. */
export async function findSpecXdr(db: Queryable, id: number): Promise<string | undefined> {
  const rows = await db.query<{ spec_xdr: string }>(
    'SELECT spec_xdr FROM stellar_contract_specs WHERE id = $1',
    [id],
  );
  return rows[0]?.spec_xdr;
}
