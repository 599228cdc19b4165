import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claimSetting } from '../platform/db/settings.repository.ts';
import type { Platform } from '../platform/platform.ts';
import { newAdminToken, setAdminToken } from './admin-token.ts';
import { createApplication } from './applications.service.ts';

export type Credentials = {
  adminToken: string;
  applicationId: string;
  apiKey: string;
  sender: string;
  devnetRpcUrl: string | null;
  sorobanRpcUrl: string | null;
};

function credentialsPath(dataDir: string): string {
  return join(dataDir, 'credentials.json');
}

function writeCredentials(path: string, credentials: Credentials): void {
  writeFileSync(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/**
 * On the first start: an admin token and one premium application (with a funded sender) written to
 * `<dataDir>/credentials.json` (mode 0600) and returned so they are logged once. On later starts only
 * the local network URLs in that file are refreshed (ports may change). The first start is decided by
 * the store (the admin token row), so two processes on one PostgreSQL bootstrap once.
 */
export async function ensureFirstStartCredentials(platform: Platform): Promise<Credentials | undefined> {
  const path = credentialsPath(platform.config.dataDir);
  // One row decides which process bootstraps, even when two start at once on one PostgreSQL.
  if (await claimSetting(platform.db, 'first_start_done', new Date().toISOString())) {
    const adminToken = platform.config.adminToken ?? newAdminToken();
    await setAdminToken(platform.db, adminToken);
    const created = await createApplication(platform, { name: 'default', plan: 'premium' });
    const credentials: Credentials = { adminToken, ...created, ...platform.local };
    writeCredentials(path, credentials);
    return credentials;
  }
  if (platform.config.adminToken) await setAdminToken(platform.db, platform.config.adminToken);
  if (existsSync(path)) {
    const stored = JSON.parse(readFileSync(path, 'utf8')) as Credentials;
    const next = {
      ...stored,
      ...platform.local,
      ...(platform.config.adminToken ? { adminToken: platform.config.adminToken } : {}),
    };
    if (JSON.stringify(next) !== JSON.stringify(stored)) writeCredentials(path, next);
  }
  return undefined;
}
