import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { databaseFactories, freshStoreWithApplication } from '../../../test/support/databases.ts';
import { randomHex as hex } from '../../../test/support/random-hex.ts';
import { allocateNonces, ensureNonceRow } from './nonces.repository.ts';
import {
  insertSignedTransactions,
  type NewTransaction,
  type SignedFields,
} from './transactions.repository.ts';

const chainId = 31337;
const sender = `0x${'ab'.repeat(20)}`;

describe.each(databaseFactories)('the signing statements on $kind', (factory) => {
  const store = freshStoreWithApplication(factory);
  beforeEach(() => ensureNonceRow(store.db, chainId, sender, 7));

  const addGaps = async (...nonces: number[]) => {
    for (const nonce of nonces) {
      await store.db.query('INSERT INTO evm_nonce_gaps (chain_id, address, nonce) VALUES ($1, $2, $3)', [
        chainId,
        sender,
        nonce,
      ]);
    }
  };
  const nextNonce = async () =>
    Number(
      (
        await store.db.query<{ next_nonce: string }>(
          'SELECT next_nonce FROM evm_nonces WHERE chain_id = $1 AND address = $2',
          [chainId, sender],
        )
      )[0]?.next_nonce,
    );
  const gapsLeft = async () =>
    (
      await store.db.query<{ nonce: string }>(
        'SELECT nonce FROM evm_nonce_gaps WHERE address = $1 ORDER BY nonce',
        [sender],
      )
    ).map((row) => Number(row.nonce));

  it('allocates a range from the next nonce when there are no gaps', async () => {
    expect(await store.db.transaction((tx) => allocateNonces(tx, chainId, sender, 3))).toEqual([7n, 8n, 9n]);
    expect(await nextNonce()).toBe(10);
  });

  it('keeps the stored next nonce when a known sender is ensured again with a lagging chain nonce', async () => {
    // The engine forgets which rows exist now and then (MAX_KNOWN_NONCE_ROWS) and ensures them again on
    // the next send, with the node's pending count, which lags behind signed records not yet broadcast.
    await store.db.transaction((tx) => allocateNonces(tx, chainId, sender, 3));
    await ensureNonceRow(store.db, chainId, sender, 7);
    await ensureNonceRow(store.db, chainId, sender.toUpperCase().replace('0X', '0x'), 8);
    expect(await store.db.transaction((tx) => allocateNonces(tx, chainId, sender, 1))).toEqual([10n]);
    expect(await nextNonce()).toBe(11);
  });

  it('takes the gaps first, smallest first, then a range for the rest', async () => {
    await store.db.query('UPDATE evm_nonces SET next_nonce = 20 WHERE address = $1', [sender]);
    await addGaps(15, 3, 11);
    expect(await store.db.transaction((tx) => allocateNonces(tx, chainId, sender, 5))).toEqual([
      3n,
      11n,
      15n,
      20n,
      21n,
    ]);
    expect(await nextNonce()).toBe(22);
    expect(await gapsLeft()).toEqual([]);
  });

  it('leaves the next nonce alone when the gaps cover the whole group', async () => {
    await addGaps(2, 4, 5);
    expect(await store.db.transaction((tx) => allocateNonces(tx, chainId, sender, 2))).toEqual([2n, 4n]);
    expect(await nextNonce()).toBe(7);
    expect(await gapsLeft()).toEqual([5]);
  });

  it('fails for a sender without a nonce row', async () => {
    await expect(
      store.db.transaction((tx) => allocateNonces(tx, chainId, `0x${'cd'.repeat(20)}`, 1)),
    ).rejects.toThrow(/no nonce row/);
  });

  it('stores each signed transaction with its first attempt, in one statement', async () => {
    const rows = [0, 1, 2].map((index) => {
      const tx: NewTransaction = {
        id: randomUUID(),
        applicationId: store.applicationId,
        chainId,
        kind: 'call',
        sender,
        to: hex(20),
        contractAddress: null,
        value: 10n ** 30n + BigInt(index),
        input: hex(68),
        method: 'transfer',
        specId: null,
        myReference: index === 0 ? 'order-1' : null,
      };
      const signed: SignedFields = {
        nonce: BigInt(7 + index),
        gasLimit: 51_234n,
        maxFeePerGas: 2n * 10n ** 9n + BigInt(index),
        maxPriorityFeePerGas: 10n ** 9n,
        txHash: hex(32),
        rawTx: hex(120),
      };
      return { tx, signed };
    });
    await store.db.transaction((tx) => insertSignedTransactions(tx, rows));
    const attempts = await store.db.query<{
      tx_hash: string;
      transaction_id: string;
      raw_tx: string;
      max_fee_per_gas: string;
      max_priority_fee_per_gas: string;
    }>(
      'SELECT tx_hash, transaction_id, raw_tx, max_fee_per_gas::text, max_priority_fee_per_gas::text FROM evm_transaction_attempts ORDER BY max_fee_per_gas',
    );
    expect(attempts).toEqual(
      rows.map(({ tx, signed }) => ({
        tx_hash: signed.txHash,
        transaction_id: tx.id,
        raw_tx: signed.rawTx,
        max_fee_per_gas: signed.maxFeePerGas.toString(),
        max_priority_fee_per_gas: signed.maxPriorityFeePerGas.toString(),
      })),
    );
    const stored = await store.db.query<{
      id: string;
      state: string;
      raw_tx: string;
      nonce: string;
      value: string;
    }>('SELECT id, state, raw_tx, nonce::text, value::text FROM evm_transactions ORDER BY nonce');
    expect(stored).toEqual(
      rows.map(({ tx, signed }) => ({
        id: tx.id,
        state: 'signed',
        raw_tx: signed.rawTx,
        nonce: signed.nonce.toString(),
        value: tx.value.toString(),
      })),
    );
  });
});
