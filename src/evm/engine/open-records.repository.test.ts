import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertTestApplication } from '../../../test/support/applications.ts';
import { databaseFactories } from '../../../test/support/databases.ts';
import { storeSignedTransfer } from '../../../test/support/stored-transfer.ts';
import type { Database } from '../../platform/db/database.ts';
import { migrate } from '../../platform/db/migrate.ts';
import { countOpenRecords } from './open-records.repository.ts';
import { markRefused } from './refused-resends.repository.ts';

describe.each(databaseFactories)('the open-record count of /metrics on $kind', (factory) => {
  let db: Database;
  let applicationId: string;
  beforeEach(async () => {
    db = await factory.open();
    await migrate(db);
    applicationId = await insertTestApplication(db);
  });
  afterEach(async () => db?.close());

  const store = async (chainId: number, nonce: number, state: string) => {
    const { id } = await storeSignedTransfer(db, {
      applicationId,
      chainId,
      sender: `0x${'ab'.repeat(20)}`,
      nonce: BigInt(nonce),
    });
    await db.query(
      `UPDATE evm_transactions SET state = $2, created_at = now() - interval '90 seconds' WHERE id = $1`,
      [id, state],
    );
    return id;
  };

  it('counts open records per network and state, the refused ones among them, and the oldest’s age', async () => {
    expect(await countOpenRecords(db)).toEqual([]);
    const refused = await store(31337, 0, 'inserted');
    await store(31337, 1, 'inserted');
    await store(31337, 2, 'signed');
    await store(10, 0, 'processing');
    await store(31337, 3, 'confirmed');
    await store(31337, 4, 'error');
    await markRefused(db, refused);
    const rows = await countOpenRecords(db);
    const byKey = new Map(rows.map((row) => [`${row.chain_id}:${row.state}`, row]));
    expect([...byKey.keys()].sort()).toEqual(['10:processing', '31337:inserted', '31337:signed']);
    expect(byKey.get('31337:inserted')).toMatchObject({ records: 2, refused: 1 });
    expect(byKey.get('31337:signed')).toMatchObject({ records: 1, refused: 0 });
    expect(byKey.get('10:processing')).toMatchObject({ records: 1, refused: 0 });
    for (const row of rows) {
      expect(row.oldest_seconds).toBeGreaterThanOrEqual(90);
      expect(row.oldest_seconds).toBeLessThan(3600);
    }
  });
});
