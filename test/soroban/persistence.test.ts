import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeToScVal, scValToNative, type xdr } from '@stellar/stellar-sdk';
import { afterAll, describe, expect, it } from 'vitest';
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
