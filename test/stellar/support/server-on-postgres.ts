import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { findFreePort } from '../../../src/platform/net/free-port.ts';
import { apiClient } from '../../support/api-client.ts';
import { createDatabase } from '../../support/postgres-server.ts';
import { type ServerProcess, spawnServer, waitForHealthy } from '../../support/server-process.ts';

/**
 * A server process (no devnet) on a fresh data dir and a fresh PostgreSQL database, so a test can kill
 * it, start it again with `restart()`, and read the store beside it.
 */
export async function serverOnPostgres(extraEnv: Record<string, string> = {}) {
  const databaseUrl = await createDatabase(inject('postgresUrl'));
  const dataDir = mkdtempSync(join(tmpdir(), 'cg-stellar-server-'));
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    CHAINGATE_DATA_DIR: dataDir,
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    CHAINGATE_DEVNET: '0',
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  const start = async (): Promise<ServerProcess> => {
    const server = spawnServer(env);
    await waitForHealthy(url, server);
    return server;
  };
  const first = await start();
  const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8'));
  const headers = {
    authorization: `Bearer ${credentials.apiKey}`,
    'x-application-svc': credentials.applicationId,
  };
  return { url, databaseUrl, headers, call: apiClient(url, headers), first, restart: start };
}
