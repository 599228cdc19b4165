import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Credentials } from '../../src/applications/first-start.ts';
import { loadConfig } from '../../src/platform/config/config.ts';
import { type RunningService, startService } from '../../src/service.ts';
import { relayedDatabase } from './stalling-relay.ts';

export type TestService = RunningService & {
  credentials: Credentials;
  dataDir: string;
  /** Headers of the first-start premium application. */
  auth: Record<string, string>;
  /** Stops the service and deletes its data dir (unless `keepDataDir`). */
  close(options?: { keepDataDir?: boolean }): Promise<void>;
};

/**
 * The whole service in-process on a free port, with its own data dir and devnet (interval mining).
 * `env` overrides the environment the config is read from (e.g. DATABASE_URL).
 */
export async function startTestService(env: Record<string, string | undefined> = {}): Promise<TestService> {
  const dataDir = env.CHAINGATE_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'chaingate-test-'));
  const config = loadConfig({
    PORT: '0',
    CHAINGATE_DEVNET_PORT: '0',
    CHAINGATE_SOROBAN_PORT: '0',
    CHAINGATE_DEVNET_BLOCK_TIME: '0.2',
    LOG_LEVEL: 'warn',
    ...env,
    CHAINGATE_DATA_DIR: dataDir,
  });
  const service = await startService(config);
  const { readFileSync } = await import('node:fs');
  const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as Credentials;
  return {
    ...service,
    credentials,
    dataDir,
    auth: { authorization: `Bearer ${credentials.apiKey}`, 'x-application-svc': credentials.applicationId },
    close: async (options = {}) => {
      await service.stop();
      if (!options.keepDataDir && !env.CHAINGATE_DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The service on a fresh PostgreSQL database it reaches through a relay that can stall the server's
 * answers, with a 2 s deadline on the store's statements.
 */
export async function startServiceOnStallingDatabase(env: Record<string, string> = {}) {
  const database = await relayedDatabase();
  const service = await startTestService({
    DATABASE_URL: database.url,
    CHAINGATE_DATABASE_TIMEOUT_SECONDS: '2',
    ...env,
  });
  return {
    service,
    relay: database.relay,
    close: async () => {
      database.relay.resume();
      await service.close();
      await database.relay.close();
    },
  };
}
