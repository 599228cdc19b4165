import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type AdminTarget = { url: string; adminToken: string };

export class CliError extends Error {
  override name = 'CliError';
}

/**
 * Where the running server is and how to reach its admin API: flags, then CHAINGATE_URL /
 * CHAINGATE_ADMIN_TOKEN, then the data dir's credentials.json (the embedded default).
 */
export function resolveAdminTarget(
  flags: { url?: string | undefined; adminToken?: string | undefined; dataDir?: string | undefined },
  env: Record<string, string | undefined> = process.env,
): AdminTarget {
  const url = flags.url ?? env.CHAINGATE_URL ?? `http://${env.HOST ?? '127.0.0.1'}:${env.PORT ?? '8080'}`;
  let adminToken = flags.adminToken ?? env.CHAINGATE_ADMIN_TOKEN;
  if (!adminToken) {
    const path = join(resolve(flags.dataDir ?? env.CHAINGATE_DATA_DIR ?? './data'), 'credentials.json');
    if (existsSync(path))
      adminToken = (JSON.parse(readFileSync(path, 'utf8')) as { adminToken?: string }).adminToken;
  }
  if (!adminToken) {
    throw new CliError(
      'no admin token: pass --admin-token, set CHAINGATE_ADMIN_TOKEN, or run where data/credentials.json is',
    );
  }
  return { url: url.replace(/\/+$/, ''), adminToken };
}

export async function callAdminApi(
  target: AdminTarget,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${target.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${target.adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (cause) {
    throw new CliError(
      `cannot reach chaingate at ${target.url}: ${(cause as Error).message} (is it running?)`,
    );
  }
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as unknown) : null;
  if (!response.ok) {
    const message = (parsed as { message?: string } | null)?.message ?? text;
    throw new CliError(`${method} ${path} answered ${response.status}: ${message}`);
  }
  return parsed;
}
