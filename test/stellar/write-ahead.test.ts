import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type SorobanSandbox, startSorobanSandbox } from '../../src/stellar/sandbox/index.ts';
import type { ServerProcess } from '../support/server-process.ts';
import { type RpcRelay, startRpcRelay } from './support/rpc-relay.ts';
import { serverOnPostgres } from './support/server-on-postgres.ts';
import { deployAndWait, invokeAndWait, savedId, waitForStellar } from './support/stellar-api.ts';
import { behaviourWasm } from './support/test-contracts.ts';

const TESTNET = 100_000_000;

let sandbox: SorobanSandbox;
let relay: RpcRelay;
beforeAll(async () => {
  sandbox = await startSorobanSandbox({ ledgerCloseMs: 200 });
  relay = await startRpcRelay(sandbox.rpcUrl);
});
afterAll(async () => {
  await relay?.stop();
  await sandbox?.stop();
});

/**
 * The write-ahead record: the server is killed (SIGKILL) while its submissions hang, so the records
 * are stored with their signed envelopes and the network never saw them. The restarted server
 * submits them from the store, in sequence order, and each runs exactly once.
 */
it('submits after a restart what was stored but never reached the network', {
  timeout: 180_000,
}, async () => {
  const config = join(mkdtempSync(join(tmpdir(), 'cg-stellar-wal-')), 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      stellar: {
        networks: [
          {
            networkId: TESTNET,
            rpcUrl: relay.url,
            networkPassphrase: sandbox.networkPassphrase,
            friendbotUrl: `${relay.url}friendbot`,
          },
        ],
      },
    }),
  );
  const { url, databaseUrl, headers, call, first, restart } = await serverOnPostgres({
    CHAINGATE_SOROBAN: '0',
    CHAINGATE_CONFIG: config,
    CHAINGATE_STELLAR_RPC_TIMEOUT_SECONDS: '60',
  });
  const id = await savedId(url, headers, await behaviourWasm(), 'behaviour');
  const address = await deployAndWait(call, id, undefined, TESTNET);
  expect((await invokeAndWait(call, address, 'count', [], TESTNET)).receipt.result).toBe(1);

  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const second: { server?: ServerProcess } = {};
  try {
    relay.holdSends(true);
    const requests = [1, 2, 3].map(() =>
      call('POST', '/stellar/v1/contract/invoke', {
        blockchainNetwork: TESTNET,
        address,
        method: 'count',
        params: [],
        restore: false,
        myReference: 'held',
      }).catch(() => undefined),
    );
    const deadline = Date.now() + 30_000;
    let stored: Array<{ tx_hash: string; sequence: string }> = [];
    while (Date.now() < deadline && (stored.length === 0 || relay.held() === 0)) {
      stored = (
        await db.query(
          "SELECT tx_hash, sequence FROM stellar_transactions WHERE state = 'signed' ORDER BY sequence",
        )
      ).rows;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(stored.length).toBeGreaterThan(0);
    first.child.kill('SIGKILL');
    await first.exited;
    await Promise.all(requests);
    await relay.release(false);
    relay.holdSends(false);

    second.server = await restart();
    for (const { tx_hash } of stored) {
      expect((await waitForStellar(call, tx_hash, TESTNET, 60_000)).status).toBe('SUCCESS');
    }
    // The tracker finishes the records too (transaction information reads the network first).
    let records: Array<{ state: string; submit_count: number }> = [];
    const finished = Date.now() + 30_000;
    while (Date.now() < finished) {
      records = (
        await db.query("SELECT state, submit_count FROM stellar_transactions WHERE my_reference = 'held'")
      ).rows;
      if (records.every((record) => record.state === 'success')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(records).toEqual(stored.map(() => ({ state: 'success', submit_count: 1 })));
    // Exactly once each: the counter moved by the stored invocations, then this one.
    expect((await invokeAndWait(call, address, 'count', [], TESTNET)).receipt.result).toBe(stored.length + 2);
  } finally {
    await db.end();
    second.server?.child.kill('SIGTERM');
    await second.server?.exited;
  }
});
