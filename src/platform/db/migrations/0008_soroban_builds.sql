-- Soroban project uploads (`POST /stellar/v1/contract/upload`) and their compilation queue. The zip stays
-- in the store until its build ends, so a restart resumes queued builds; a build in progress holds a
-- lease that its worker renews, and a lapsed lease (the process died) puts the build back in the queue.

CREATE TABLE soroban_builds (
  filename text PRIMARY KEY,
  application_id uuid NOT NULL REFERENCES applications (id),
  status text NOT NULL CHECK (status IN ('queued', 'compiling', 'done', 'failed')),
  -- The uploaded zip; NULL once the build has ended.
  project_zip bytea,
  -- The contracts detected at upload: [{ "name": package name, "library": wasm file stem }].
  contracts jsonb NOT NULL,
  -- When done: [{ "name", "contractSpecsId" }].
  results jsonb,
  log text NOT NULL DEFAULT '',
  -- One line saying why a failed build failed.
  reason text,
  attempts integer NOT NULL DEFAULT 0,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);

CREATE INDEX soroban_builds_open ON soroban_builds (created_at) WHERE status IN ('queued', 'compiling');
CREATE INDEX soroban_builds_by_application ON soroban_builds (application_id);
