import type { Queryable } from '../../platform/db/database.ts';

export type BuildStatus = 'queued' | 'compiling' | 'done' | 'failed';

/** A contract found in the project at upload: its package name and the stem of the wasm cargo writes. */
export type ProjectContract = { name: string; library: string };

export type BuildResult = { name: string; contractSpecsId: number };

export type SorobanBuildRow = {
  filename: string;
  application_id: string;
  status: BuildStatus;
  contracts: ProjectContract[];
  results: BuildResult[] | null;
  log: string;
  reason: string | null;
  attempts: number;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
};

/** A build a worker holds: the row with its zip, and the attempt number that identifies the lease. */
export type ClaimedBuild = Pick<SorobanBuildRow, 'filename' | 'application_id' | 'contracts' | 'attempts'> & {
  project_zip: Uint8Array;
};

const COLUMNS =
  'filename, application_id, status, contracts, results, log, reason, attempts, created_at, started_at, finished_at';

export async function insertBuild(
  db: Queryable,
  build: { filename: string; applicationId: string; zip: Buffer; contracts: ProjectContract[] },
): Promise<void> {
  await db.query(
    `INSERT INTO soroban_builds (filename, application_id, status, project_zip, contracts)
     VALUES ($1, $2, 'queued', $3, $4)`,
    [build.filename, build.applicationId, build.zip, JSON.stringify(build.contracts)],
  );
}

/** The build only if it belongs to `applicationId`: another application's is never returned. */
export async function findApplicationBuild(
  db: Queryable,
  applicationId: string,
  filename: string,
): Promise<SorobanBuildRow | undefined> {
  const rows = await db.query<SorobanBuildRow>(
    `SELECT ${COLUMNS} FROM soroban_builds WHERE application_id = $1 AND filename = $2`,
    [applicationId, filename],
  );
  return rows[0];
}

/**
 * Takes the oldest queued build, or one whose lease lapsed (its worker died mid-build), and leases it
 * for `leaseSeconds`. SKIP LOCKED lets several processes on one PostgreSQL server take different builds.
 */
export async function claimNextBuild(db: Queryable, leaseSeconds: number): Promise<ClaimedBuild | undefined> {
  const rows = await db.query<ClaimedBuild>(
    `UPDATE soroban_builds
        SET status = 'compiling', attempts = attempts + 1, started_at = now(), log = '',
            lease_until = now() + make_interval(secs => $1)
      WHERE filename = (
        SELECT filename FROM soroban_builds
         WHERE status = 'queued' OR (status = 'compiling' AND lease_until < now())
         ORDER BY created_at
         LIMIT 1
         FOR UPDATE SKIP LOCKED)
      RETURNING filename, application_id, contracts, attempts, project_zip`,
    [leaseSeconds],
  );
  return rows[0];
}

/** Extends the lease of a build still held under `attempt`; false when it was lost. */
export async function renewBuildLease(
  db: Queryable,
  filename: string,
  attempt: number,
  leaseSeconds: number,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE soroban_builds SET lease_until = now() + make_interval(secs => $3)
      WHERE filename = $1 AND attempts = $2 AND status = 'compiling' RETURNING filename`,
    [filename, attempt, leaseSeconds],
  );
  return rows.length === 1;
}

/** Ends a build held under `attempt` (done or failed) and drops its zip; false when it was lost. */
export async function finishBuild(
  db: Queryable,
  build: {
    filename: string;
    attempt: number;
    status: 'done' | 'failed';
    results: BuildResult[] | null;
    log: string;
    reason: string | null;
  },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE soroban_builds
        SET status = $3, results = $4, log = $5, reason = $6, finished_at = now(), lease_until = NULL,
            project_zip = NULL
      WHERE filename = $1 AND attempts = $2 AND status = 'compiling' RETURNING filename`,
    [
      build.filename,
      build.attempt,
      build.status,
      build.results ? JSON.stringify(build.results) : null,
      build.log,
      build.reason,
    ],
  );
  return rows.length === 1;
}

/** Gives back a build interrupted by a shutdown: queued again, the attempt not counted. */
export async function requeueBuild(db: Queryable, filename: string, attempt: number): Promise<void> {
  await db.query(
    `UPDATE soroban_builds
        SET status = 'queued', attempts = attempts - 1, lease_until = NULL, started_at = NULL, log = ''
      WHERE filename = $1 AND attempts = $2 AND status = 'compiling'`,
    [filename, attempt],
  );
}
