import { appendFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeToScVal, scValToNative, type xdr } from '@stellar/stellar-sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { HISTORY_LEDGERS } from '../../src/stellar/sandbox/sandbox-node.ts';
import { Kind, kitchenSinkWasm } from './support/contracts.ts';
import { DappClient } from './support/sandbox-client.ts';

describe('soroban sandbox: persistence', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('keeps accounts, contracts, storage and the ledger sequence across a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'soroban-sandbox-'));
    dirs.push(dataDir);
    const first = await DappClient.start({ dataDir });
    const alice = await first.fund();
    const contract = await first.deploy(alice, await kitchenSinkWasm());
    const put = await first.invoke(alice, contract, 'put', [
      nativeToScVal('saved', { type: 'symbol' }),
      nativeToScVal(5, { type: 'u32' }),
      nativeToScVal(Kind.persistent, { type: 'u32' }),
    ]);
    expect(put.status).toBe('SUCCESS');
    const balance = await first.balance(alice.publicKey());
    const seqBefore = (await first.server.getLatestLedger()).sequence;
    await first.stop();
    expect(await readdir(dataDir)).toContain('soroban-sandbox.json');

    const second = await DappClient.start({ dataDir });
    try {
      expect((await second.server.getLatestLedger()).sequence).toBeGreaterThanOrEqual(seqBefore);
      expect(await second.balance(alice.publicKey())).toBe(balance);
      const got = await second.invoke(alice, contract, 'get', [
        nativeToScVal('saved', { type: 'symbol' }),
        nativeToScVal(Kind.persistent, { type: 'u32' }),
      ]);
      expect(scValToNative(got.returnValue as xdr.ScVal)).toBe(5);
      // Transactions from before the restart are still known.
      expect((await second.server.getTransaction(put.txHash)).status).toBe('SUCCESS');
    } finally {
      await second.stop();
    }
  });

  /** A sandbox in a new data dir whose ledgers close only when asked, with one funded account. */
  const startFunded = async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'soroban-sandbox-'));
    dirs.push(dataDir);
    const snapshotFile = join(dataDir, 'soroban-sandbox.json');
    const journalFile = join(dataDir, 'soroban-ledgers.jsonl');
    // Ledgers close only when asked (Friendbot closes its own), so the test knows each one.
    const first = await DappClient.start({ dataDir, ledgerCloseMs: 0 });
    const alice = await first.fund();
    const snapshot = await readFile(snapshotFile, 'utf8');
    return { dataDir, snapshotFile, journalFile, first, alice, snapshot };
  };

  it('appends an empty ledger to the journal instead of rewriting the snapshot, and replays it on restart', async () => {
    const { dataDir, snapshotFile, journalFile, first, alice, snapshot } = await startFunded();
    const sequences = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { sequence: number }).sequence);
    const closed: number[] = [];
    for (let index = 0; index < 4; index++) closed.push(await first.sandbox.closeLedger());
    expect(await readFile(snapshotFile, 'utf8')).toBe(snapshot);
    expect(sequences(await readFile(journalFile, 'utf8'))).toEqual(closed);

    // A close that changes the state writes a whole snapshot, which holds the journal's ledgers.
    const bob = await first.fund();
    expect(await readdir(dataDir)).not.toContain('soroban-ledgers.jsonl');
    const saved = JSON.parse(await readFile(snapshotFile, 'utf8')) as {
      ledgers: Array<{ sequence: number }>;
    };
    expect(saved.ledgers.map((ledger) => ledger.sequence)).toEqual(expect.arrayContaining(closed));

    const closedAfter = [await first.sandbox.closeLedger(), await first.sandbox.closeLedger()];
    const journal = await readFile(journalFile, 'utf8');
    expect(sequences(journal)).toEqual(closedAfter);
    const before = await first.server.getLatestLedger();
    expect(before.sequence).toBe(closedAfter.at(-1));
    const balances = [await first.balance(alice.publicKey()), await first.balance(bob.publicKey())];
    await first.stop();
    // A crash in the middle of an append leaves a torn last line: it is ignored.
    await appendFile(journalFile, '{"sequence":');

    const second = await DappClient.start({ dataDir, ledgerCloseMs: 0 });
    try {
      const latest = await second.server.getLatestLedger();
      expect(latest.sequence).toBe(before.sequence);
      expect(latest.id).toBe(before.id);
      expect([await second.balance(alice.publicKey()), await second.balance(bob.publicKey())]).toEqual(
        balances,
      );
    } finally {
      await second.stop();
    }
  });

  it('folds the journal into a new snapshot once it holds a whole history, and restarts from both', async () => {
    const { dataDir, snapshotFile, journalFile, first, alice, snapshot } = await startFunded();
    const journalLines = async () => (await readFile(journalFile, 'utf8')).trim().split('\n').length;

    for (let index = 0; index < HISTORY_LEDGERS; index++) await first.sandbox.closeLedger();
    // Every one of those went to the journal; the snapshot on disk is still the one after Friendbot.
    expect(await readFile(snapshotFile, 'utf8')).toBe(snapshot);
    expect(await journalLines()).toBe(HISTORY_LEDGERS);

    const folded = await first.sandbox.closeLedger();
    expect(await readdir(dataDir)).not.toContain('soroban-ledgers.jsonl');
    const saved = JSON.parse(await readFile(snapshotFile, 'utf8')) as {
      ledgers: Array<{ sequence: number }>;
    };
    expect(saved.ledgers).toHaveLength(HISTORY_LEDGERS);
    expect(saved.ledgers.at(-1)?.sequence).toBe(folded);

    const last = await first.sandbox.closeLedger();
    expect(await journalLines()).toBe(1);
    const balance = await first.balance(alice.publicKey());
    await first.stop();

    const second = await DappClient.start({ dataDir, ledgerCloseMs: 0 });
    try {
      expect((await second.server.getLatestLedger()).sequence).toBe(last);
      expect(await second.balance(alice.publicKey())).toBe(balance);
    } finally {
      await second.stop();
    }
  });

  it('keeps nothing without a dataDir', async () => {
    const first = await DappClient.start();
    const alice = await first.fund();
    await first.stop();
    const second = await DappClient.start();
    try {
      await expect(second.server.getAccount(alice.publicKey())).rejects.toThrow();
    } finally {
      await second.stop();
    }
  });
});
