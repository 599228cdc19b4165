import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startPostgresServer } from './support/postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/**
 * One folder for every temporary file of the run, removed at its end: test data dirs, and what the
 * services, their anvils, PostgreSQL and Chromium put in the temp dir. Set as TMPDIR before the test
 * workers start, so they and every process they spawn inherit it. Tests that kill a service with
 * SIGKILL (crash recovery, process lifecycle) cannot remove its data dir themselves: before, each run
 * left ~130 MB and some 45 folders in /tmp, master keys and credentials among them.
 */
function runTemporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'chaingate-tests-'));
  // Traversable, not listable: the PostgreSQL server below runs as `postgres` and keeps its cluster in it.
  chmodSync(folder, 0o711);
  process.env.TMPDIR = folder;
  return folder;
}

/** One throwaway PostgreSQL server for the whole run; each test file creates its own database on it. */
export default async function setup(project: TestProject) {
  const folder = runTemporaryFolder();
  const server = await startPostgresServer();
  project.provide('postgresUrl', server.url);
  return async () => {
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  };
}
