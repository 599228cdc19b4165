import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { insertTestApplication } from '../../../test/support/applications.ts';
import { databaseFactories } from '../../../test/support/databases.ts';
import { insertEvmAccount } from '../../platform/custody/evm-accounts.repository.ts';
import type { Database } from '../../platform/db/database.ts';
import { migrate } from '../../platform/db/migrate.ts';
import { insertWallet, insertWalletHash } from '../wallets.repository.ts';
import { claimDueDeliveries, insertDelivery, markDelivered } from './callbacks.repository.ts';

const sealed = { keyId: 'k', nonce: randomBytes(12), ciphertext: randomBytes(48) };

/** An application with `count` wallets, each with one pending delivery due at `dueAt`. */
async function seedDeliveries(db: Database, count: number, dueAt: Date): Promise<string[]> {
  const applicationId = await insertTestApplication(db);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const address = `0x${randomBytes(20).toString('hex')}`;
    await insertEvmAccount(db, { address, applicationId, kind: 'custodied', isDefault: false, sealed });
    const hashId = randomUUID();
    await insertWalletHash(db, {
      id: hashId,
      hashSha256: randomBytes(32).toString('hex'),
      applicationId,
      username: `user${i}@example.com`,
      strategies: [1],
      callbackUrl: 'http://127.0.0.1:9/cb',
      fallbackUrl: 'http://127.0.0.1:9/fb',
      cancelUrl: 'http://127.0.0.1:9/cancel',
      expiresAt: dueAt,
      createdAt: dueAt,
    });
    const walletId = randomUUID();
    await insertWallet(db, {
      id: walletId,
      applicationId,
      userEmail: `user${i}@example.com`,
      address,
      strategy: 1,
      pinHash: 'scrypt$x',
      totp: null,
      totpLastStep: null,
      hashId,
      createdAt: dueAt,
    });
    const id = randomUUID();
    await insertDelivery(db, {
      id,
      applicationId,
      walletId,
      url: 'http://127.0.0.1:9/cb',
      body: '{}',
      createdAt: dueAt,
      giveUpAt: new Date(dueAt.getTime() + 86_400_000),
    });
    ids.push(id);
  }
  return ids;
}

describe.each(databaseFactories)('callback deliveries on $kind', (factory) => {
  let db: Database;
  afterEach(async () => db?.close());

  it('hands each due delivery to one claimer only, and again once its lease runs out', async () => {
    db = await factory.open();
    await migrate(db);
    const now = new Date('2030-01-01T00:00:00Z');
    const ids = await seedDeliveries(db, 10, now);
    const lease = new Date(now.getTime() + 60_000);
    const [first, second] = await Promise.all([
      claimDueDeliveries(db, now, lease, 6),
      claimDueDeliveries(db, now, lease, 6),
    ]);
    const claimed = [...(first ?? []), ...(second ?? [])].map((row) => row.id);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.sort()).toEqual([...ids].sort());
    expect(await claimDueDeliveries(db, now, lease, 20)).toEqual([]);

    await markDelivered(db, ids[0] as string, 204, now);
    const again = await claimDueDeliveries(db, lease, new Date(lease.getTime() + 60_000), 20);
    expect(again.map((row) => row.id).sort()).toEqual(ids.slice(1).sort());
    expect(again.every((row) => row.attempts === 2)).toBe(true);
  });
});
