import type { Queryable } from '../platform/db/database.ts';

export type UploadKind = 'file' | 'metadata' | 'directory';

export type UploadRow = {
  id: string;
  cid: string;
  kind: UploadKind;
  filename: string;
  size: string;
  content_type: string;
  created_at: Date;
};

export type NewUpload = {
  applicationId: string;
  cid: string;
  kind: UploadKind;
  filename: string;
  size: number;
  contentType: string;
};

export async function insertUpload(db: Queryable, upload: NewUpload): Promise<UploadRow> {
  const rows = await db.query<UploadRow>(
    `INSERT INTO ipfs_uploads (application_id, cid, kind, filename, size, content_type)
     VALUES ($1, $2, $3, $4, $5, $6)
     RETURNING id, cid, kind, filename, size, content_type, created_at`,
    [upload.applicationId, upload.cid, upload.kind, upload.filename, upload.size, upload.contentType],
  );
  return rows[0] as UploadRow;
}

/** The application's uploads, newest first. */
export async function listApplicationUploads(
  db: Queryable,
  applicationId: string,
  page: { limit: number; offset: number },
): Promise<UploadRow[]> {
  return db.query<UploadRow>(
    `SELECT id, cid, kind, filename, size, content_type, created_at FROM ipfs_uploads
     WHERE application_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
    [applicationId, page.limit, page.offset],
  );
}

export async function countApplicationUploads(db: Queryable, applicationId: string): Promise<number> {
  const rows = await db.query<{ count: string }>(
    'SELECT count(*) AS count FROM ipfs_uploads WHERE application_id = $1',
    [applicationId],
  );
  return Number(rows[0]?.count ?? 0);
}

/** Deletes the application's uploads of `cid`; answers how many there were. */
export async function deleteApplicationUploads(
  db: Queryable,
  applicationId: string,
  cid: string,
): Promise<number> {
  const rows = await db.query<{ id: string }>(
    'DELETE FROM ipfs_uploads WHERE application_id = $1 AND cid = $2 RETURNING id',
    [applicationId, cid],
  );
  return rows.length;
}

/** True while any application still has an upload of `cid`. */
export async function isCidPinned(db: Queryable, cid: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM ipfs_uploads WHERE cid = $1 LIMIT 1', [cid]);
  return rows.length > 0;
}

/** Name and type an upload of `cid` was recorded with (any application's: the gateway is public). */
export async function findUploadDescription(
  db: Queryable,
  cid: string,
): Promise<{ filename: string; content_type: string } | undefined> {
  const rows = await db.query<{ filename: string; content_type: string }>(
    'SELECT filename, content_type FROM ipfs_uploads WHERE cid = $1 ORDER BY id LIMIT 1',
    [cid],
  );
  return rows[0];
}

export async function insertDagBlocks(db: Queryable, rootCid: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.query(
    `INSERT INTO ipfs_dag_blocks (root_cid, block_key)
     SELECT $1, key FROM unnest($2::text[]) AS key ON CONFLICT DO NOTHING`,
    [rootCid, keys],
  );
}

/** Forgets the blocks of `rootCid`; answers those of its blocks that no other root holds. */
export async function dropDagBlocks(db: Queryable, rootCid: string): Promise<string[]> {
  const dropped = await db.query<{ block_key: string }>(
    'DELETE FROM ipfs_dag_blocks WHERE root_cid = $1 RETURNING block_key',
    [rootCid],
  );
  if (dropped.length === 0) return [];
  return unreferencedBlocks(
    db,
    dropped.map((row) => row.block_key),
  );
}

/** The keys among `keys` that no pinned root holds. */
export async function unreferencedBlocks(db: Queryable, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db.query<{ key: string }>(
    `SELECT key FROM unnest($1::text[]) AS key
     WHERE NOT EXISTS (SELECT 1 FROM ipfs_dag_blocks WHERE block_key = key)`,
    [keys],
  );
  return rows.map((row) => row.key);
}
