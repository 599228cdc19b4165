import type { Queryable } from './database.ts';

/** Sets a setting, replacing its value. */
export async function putSetting(db: Queryable, key: string, value: string): Promise<void> {
  await db.query(
    'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
    [key, value],
  );
}

export async function getSetting(db: Queryable, key: string): Promise<string | undefined> {
  const rows = await db.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [key]);
  return rows[0]?.value;
}

/** Sets a setting only if it is not set yet; true for the one caller that set it (a constraint decides). */
export async function claimSetting(db: Queryable, key: string, value: string): Promise<boolean> {
  const rows = await db.query(
    'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING key',
    [key, value],
  );
  return rows.length === 1;
}
