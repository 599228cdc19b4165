import { randomBytes, randomUUID } from 'node:crypto';
import { insertApplication } from '../../src/applications/applications.repository.ts';
import type { Queryable } from '../../src/platform/db/database.ts';

/** A stored application with a random id and a key nobody knows, for store-level tests; its id. */
export async function insertTestApplication(db: Queryable): Promise<string> {
  const id = randomUUID();
  await insertApplication(db, {
    id,
    name: 'shop',
    plan: 'free',
    apiKeyHash: randomBytes(32),
    apiKeyHint: '…abcd',
  });
  return id;
}
