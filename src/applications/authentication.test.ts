import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../platform/db/database.ts';
import { migrate } from '../platform/db/migrate.ts';
import { openPgliteDatabase } from '../platform/db/pglite-database.ts';
import { generateSecretToken, hashSecretToken, tokenHint } from './api-key.ts';
import { insertApplication } from './applications.repository.ts';
import { ApplicationAuthenticator } from './authentication.ts';

describe('ApplicationAuthenticator', () => {
  let db: Database;
  const id: string = randomUUID();
  const apiKey = generateSecretToken('cg_key');
  const headersFor = (key: string, applicationId = id, scheme = 'Bearer') => ({
    authorization: `${scheme} ${key}`,
    'x-application-svc': applicationId,
  });
  beforeAll(async () => {
    db = await openPgliteDatabase(undefined);
    await migrate(db);
    await insertApplication(db, {
      id,
      name: 'shop',
      plan: 'premium',
      apiKeyHash: hashSecretToken(apiKey),
      apiKeyHint: tokenHint(apiKey),
    });
  });
  afterAll(async () => db?.close());

  it('answers a key verified a moment ago from the cache, and nothing else', async () => {
    const authenticator = new ApplicationAuthenticator(db);
    expect(authenticator.cachedApplication(headersFor(apiKey))).toBeUndefined();
    expect((await authenticator.authenticate(headersFor(apiKey))).id).toBe(id);
    expect(authenticator.cachedApplication(headersFor(apiKey))?.id).toBe(id);
    // The same id in upper case, and the synonym header, find the same entry.
    expect(authenticator.cachedApplication(headersFor(apiKey, id.toUpperCase()))?.id).toBe(id);
    expect(
      authenticator.cachedApplication({ authorization: `Bearer ${apiKey}`, 'x-application-vkn': id })?.id,
    ).toBe(id);
    // A key differing in its last character, one of another length, none, another application.
    const wrong = `${apiKey.slice(0, -1)}${apiKey.endsWith('a') ? 'b' : 'a'}`;
    expect(authenticator.cachedApplication(headersFor(wrong))).toBeUndefined();
    expect(authenticator.cachedApplication(headersFor(`${apiKey}x`))).toBeUndefined();
    expect(authenticator.cachedApplication({ 'x-application-svc': id })).toBeUndefined();
    expect(authenticator.cachedApplication(headersFor(apiKey, randomUUID()))).toBeUndefined();
    await expect(authenticator.authenticate(headersFor(wrong))).rejects.toMatchObject({
      code: 'CG_ERR_UNAUTHORIZED',
    });
  });

  it('checks a differently written header in full, then remembers it', async () => {
    const authenticator = new ApplicationAuthenticator(db);
    await authenticator.authenticate(headersFor(apiKey));
    expect(authenticator.cachedApplication(headersFor(apiKey, id, 'bearer'))).toBeUndefined();
    expect((await authenticator.authenticate(headersFor(apiKey, id, 'bearer'))).id).toBe(id);
    expect(authenticator.cachedApplication(headersFor(apiKey, id, 'bearer'))?.id).toBe(id);
  });

  it('stops answering from the cache once the row is older than its lifetime', async () => {
    const authenticator = new ApplicationAuthenticator(db, 50);
    await authenticator.authenticate(headersFor(apiKey));
    expect(authenticator.cachedApplication(headersFor(apiKey))?.id).toBe(id);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(authenticator.cachedApplication(headersFor(apiKey))).toBeUndefined();
  });

  it('forgets an application at once when told (its key was rotated)', async () => {
    const authenticator = new ApplicationAuthenticator(db);
    await authenticator.authenticate(headersFor(apiKey));
    authenticator.forget(id);
    expect(authenticator.cachedApplication(headersFor(apiKey))).toBeUndefined();
  });
});
