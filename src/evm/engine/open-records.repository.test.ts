import { describe, expect, it } from 'vitest';
import { databaseFactories, freshStoreWithApplication } from '../../../test/support/databases.ts';
import { storeSignedTransfer } from '../../../test/support/stored-transfer.ts';
import { countOpenRecords } from './open-records.repository.ts';
import { markRefused } from './refused-resends.repository.ts';

describe.each(databaseFactories)('the open-record count of /metrics on $kind', (factory) => {
  const store = freshStoreWithApplication(factory);

  const storeRecord = async (chainId: number, nonce: number, state: string) => {
    const { id } = await storeSignedTransfer(store.db, {
      applicationId: store.applicationId,
      chainId,
      sender: `0x${'ab'.repeat(20)}`,
      nonce: BigInt(nonce),
    });
    await store.db.query(
      `UPDATE evm_transactions SET state = $2, created_at = now() - interval '90 seconds' WHERE id = $1`,
      [id, state],
    );
    return id;
  };

  it('counts open records per network and state, the refused ones among them, and the oldest’s age', async () => {
    expect(await countOpenRecords(store.db)).toEqual([]);
    const refused = await storeRecord(31337, 0, 'inserted');
    await storeRecord(31337, 1, 'inserted');
    await storeRecord(31337, 2, 'signed');
    await storeRecord(10, 0, 'processing');
    await storeRecord(31337, 3, 'confirmed');
    await storeRecord(31337, 4, 'error');
    await markRefused(store.db, refused);
    const rows = await countOpenRecords(store.db);
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
