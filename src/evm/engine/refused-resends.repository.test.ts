import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { databaseFactories, freshStoreWithApplication } from '../../../test/support/databases.ts';
import { randomHex as hex } from '../../../test/support/random-hex.ts';
import { storeSignedTransfer } from '../../../test/support/stored-transfer.ts';
import { recordMinedBatch } from './mined-records.repository.ts';
import { clearRefusal, failLongRefused, markRefused } from './refused-resends.repository.ts';
import { markBroadcastMany } from './transactions.repository.ts';

const chainId = 31337;
const sender = `0x${'ab'.repeat(20)}`;
const lost = { code: 'ERROR_CHAIN_LOST', message: 'the chain lost this transaction and refuses it again: x' };

describe.each(databaseFactories)('the refusal clock on $kind', (factory) => {
  const store = freshStoreWithApplication(factory);

  let nextNonce = 0n;
  const storeRecord = async () => {
    const nonce = nextNonce++;
    const { id, txHash } = await storeSignedTransfer(store.db, {
      applicationId: store.applicationId,
      chainId,
      sender,
      nonce,
      idempotencyKey: `key-${randomUUID()}`,
    });
    return { id, chain_id: chainId, sender, nonce: nonce.toString(), txHash };
  };
  const read = async (id: string) =>
    (
      await store.db.query<{
        state: string;
        refused_since: Date | null;
        broadcast_count: number;
        idempotency_key: string | null;
        error_code: string | null;
      }>(
        'SELECT state, refused_since, broadcast_count, idempotency_key, error_code FROM evm_transactions WHERE id = $1',
        [id],
      )
    )[0];
  const refusedHoursAgo = (id: string, hours: number) =>
    store.db.query(
      `UPDATE evm_transactions SET refused_since = now() - make_interval(hours => $2) WHERE id = $1`,
      [id, hours],
    );
  const gaps = async () =>
    (await store.db.query<{ nonce: string }>('SELECT nonce FROM evm_nonce_gaps ORDER BY nonce')).map((row) =>
      Number(row.nonce),
    );

  it('keeps the first refusal’s time, counts each, and fails the record only once it is old enough', async () => {
    const record = await storeRecord();
    await markRefused(store.db, record.id);
    const first = await read(record.id);
    expect(first?.refused_since).toBeInstanceOf(Date);
    await markRefused(store.db, record.id);
    const second = await read(record.id);
    expect(second?.refused_since).toEqual(first?.refused_since);
    expect(second?.broadcast_count).toBe((first?.broadcast_count ?? 0) + 1);

    expect(await failLongRefused(store.db, record, lost, 3600)).toBe(false);
    expect(await read(record.id)).toMatchObject({ state: 'signed', error_code: null });
    expect(await gaps()).toEqual([]);

    await refusedHoursAgo(record.id, 2);
    expect(await failLongRefused(store.db, record, lost, 3600)).toBe(true);
    // Failed as failSignedTransaction fails: its nonce to the gaps, its key released.
    expect(await read(record.id)).toMatchObject({
      state: 'error',
      error_code: 'ERROR_CHAIN_LOST',
      idempotency_key: null,
    });
    expect(await gaps()).toEqual([Number(record.nonce)]);
    expect(await failLongRefused(store.db, record, lost, 3600)).toBe(false);
  });

  it('forgets the refusal once a node takes the record, holds it, or mines it', async () => {
    const accepted = await storeRecord();
    const held = await storeRecord();
    const mined = await storeRecord();
    for (const record of [accepted, held, mined]) {
      await markRefused(store.db, record.id);
      await refusedHoursAgo(record.id, 2);
    }
    await markBroadcastMany(store.db, [accepted.id], true);
    await clearRefusal(store.db, held.id);
    await store.db.transaction((q) =>
      recordMinedBatch(
        q,
        chainId,
        [
          {
            id: mined.id,
            sender,
            nonce: mined.nonce,
            state: 'processing',
            txHash: mined.txHash,
            blockNumber: 5n,
            blockHash: hex(32),
            gasUsed: 21_000n,
            effectiveGasPrice: 2n,
            error: null,
          },
        ],
        'ERROR_REPLACED',
      ),
    );
    for (const record of [accepted, held, mined]) {
      expect((await read(record.id))?.refused_since).toBeNull();
      // A later refusal starts a new clock: no record is failed on the strength of the old one.
      expect(await failLongRefused(store.db, record, lost, 3600)).toBe(false);
    }
    expect((await read(accepted.id))?.state).toBe('inserted');
    expect((await read(mined.id))?.state).toBe('processing');
  });

  it('never fails a record that is no longer live', async () => {
    const record = await storeRecord();
    await store.db.query(`UPDATE evm_transactions SET state = 'confirmed' WHERE id = $1`, [record.id]);
    await markRefused(store.db, record.id);
    await refusedHoursAgo(record.id, 2);
    expect(await failLongRefused(store.db, record, lost, 3600)).toBe(false);
    expect((await read(record.id))?.state).toBe('confirmed');
    expect(await gaps()).toEqual([]);
  });
});
