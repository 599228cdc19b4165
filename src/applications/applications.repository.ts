import type { Queryable } from '../platform/db/database.ts';

export type Plan = 'free' | 'premium';

export type ApplicationRow = {
  id: string;
  name: string;
  plan: Plan;
  api_key_hash: Uint8Array;
  api_key_hint: string;
  created_at: Date;
};

export async function insertApplication(
  db: Queryable,
  row: { id: string; name: string; plan: Plan; apiKeyHash: Buffer; apiKeyHint: string },
): Promise<void> {
  await db.query(
    'INSERT INTO applications (id, name, plan, api_key_hash, api_key_hint) VALUES ($1, $2, $3, $4, $5)',
    [row.id, row.name, row.plan, row.apiKeyHash, row.apiKeyHint],
  );
}

export async function findApplicationById(db: Queryable, id: string): Promise<ApplicationRow | undefined> {
  const rows = await db.query<ApplicationRow>('SELECT * FROM applications WHERE id = $1', [id]);
  return rows[0];
}

export async function listApplications(db: Queryable): Promise<ApplicationRow[]> {
  return db.query<ApplicationRow>('SELECT * FROM applications ORDER BY created_at, id');
}

export async function updateApiKeyHash(
  db: Queryable,
  id: string,
  hash: Buffer,
  hint: string,
): Promise<boolean> {
  const rows = await db.query(
    'UPDATE applications SET api_key_hash = $2, api_key_hint = $3, key_rotated_at = now() WHERE id = $1 RETURNING id',
    [id, hash, hint],
  );
  return rows.length === 1;
}
