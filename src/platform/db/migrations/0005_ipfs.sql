-- IPFS: every upload an application made (its pin), and the blocks of each pinned DAG on the embedded node.

CREATE TABLE ipfs_uploads (
  id bigserial PRIMARY KEY,
  application_id uuid NOT NULL REFERENCES applications (id),
  cid text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('file', 'metadata', 'directory')),
  filename text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  content_type text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX ipfs_uploads_by_application ON ipfs_uploads (application_id, id);

CREATE INDEX ipfs_uploads_by_cid ON ipfs_uploads (cid);

-- Which blocks (by multihash key) each pinned root holds; a block is deleted once no root holds it.
CREATE TABLE ipfs_dag_blocks (
  root_cid text NOT NULL,
  block_key text NOT NULL,
  PRIMARY KEY (root_cid, block_key)
);

CREATE INDEX ipfs_dag_blocks_by_block ON ipfs_dag_blocks (block_key);
