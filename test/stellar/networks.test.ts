import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../src/platform/net/free-port.ts';
import { type SorobanSandbox, startSorobanSandbox } from '../../src/stellar/sandbox/index.ts';
import type { apiClient } from '../support/api-client.ts';
import type { TestService } from '../support/service.ts';
import {
  whileClosing as closingLedgers,
  relayedNetwork,
  startServiceWithNetworks,
} from './support/configured-networks.ts';
import { type RpcRelay, startRpcRelay } from './support/rpc-relay.ts';
import { savedId, waitForStellar } from './support/stellar-api.ts';
import { behaviourWasm } from './support/test-contracts.ts';

// A stand-in for testnet (network 100000000): a sandbox the test closes ledgers on, with entries that
// expire after 200 ledgers, so ordering within a ledger and archival are deterministic. Futurenet points
// at a closed port, pubnet at a server that never answers, network 7777 at one that answers HTTP 500.
const TESTNET = 100_000_000;
const FUTURENET = 100_000_001;
const PUBNET = 100_000_002;
const BROKEN = 7777;
/** The same sandbox as testnet, behind a relay that can hold submissions. */
const RELAYED = 7778;
const TTL = 200;

let sandbox: SorobanSandbox;
let service: TestService;
let call: ReturnType<typeof apiClient>;
let blackhole: TcpServer;
let broken: Server;
let relay: RpcRelay;
const sockets: Socket[] = [];

async function closeLedgers(count: number): Promise<void> {
  for (let index = 0; index < count; index++) await sandbox.closeLedger();
}

const whileClosing = <T>(work: Promise<T>) => closingLedgers(sandbox, work);

beforeAll(async () => {
  sandbox = await startSorobanSandbox({ ledgerCloseMs: 0, network: { minPersistentTtl: TTL } });
  blackhole = createTcpServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
  relay = await startRpcRelay(sandbox.rpcUrl);
  broken = createServer((_request, response) => response.writeHead(500).end('down'));
  await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
  const port = (server: TcpServer | Server) => (server.address() as { port: number }).port;
  ({ service, call } = await startServiceWithNetworks([
    {
      networkId: TESTNET,
      rpcUrl: sandbox.rpcUrl,
      networkPassphrase: sandbox.networkPassphrase,
      friendbotUrl: sandbox.friendbotUrl,
    },
    { networkId: FUTURENET, rpcUrl: `http://127.0.0.1:${await findFreePort()}` },
    { networkId: PUBNET, rpcUrl: `http://127.0.0.1:${port(blackhole)}` },
    { networkId: BROKEN, name: 'broken', rpcUrl: `http://127.0.0.1:${port(broken)}`, networkPassphrase: 'x' },
    relayedNetwork(RELAYED, relay, sandbox),
  ]));
});
afterAll(async () => {
  await service?.close();
  await relay?.stop();
  await sandbox?.stop();
  for (const socket of sockets) socket.destroy();
  blackhole?.close();
  broken?.close();
});

async function deployBehaviour(network = TESTNET): Promise<string> {
  const id = await savedId(service.url, service.auth, await behaviourWasm(), 'behaviour');
  const deploy = await whileClosing(
    call('POST', '/stellar/v1/contract/deployment', { contractSpecsId: id, blockchainNetwork: network }),
  );
  expect(deploy.status, deploy.text).toBe(201);
  expect((await whileClosing(waitForStellar(call, deploy.body.txHash, network))).status).toBe('SUCCESS');
  return deploy.body.address;
}

const invoke = (address: string, method: string, restore: boolean, myReference?: string, network = TESTNET) =>
  call('POST', '/stellar/v1/contract/invoke', {
    blockchainNetwork: network,
    address,
    method,
    params: [],
    restore,
    ...(myReference ? { myReference } : {}),
  });

describe('a network configured over testnet', () => {
  it('records a transaction that fails in its ledger with the contract error number and name', async () => {
    const address = await deployBehaviour();
    // Both simulate against the same state and go into one ledger: the second finds "used" set.
    const first = await invoke(address, 'once', false);
    const second = await invoke(address, 'once', false);
    expect([first.status, second.status]).toEqual([200, 200]);
    await sandbox.closeLedger();
    const ok = await whileClosing(waitForStellar(call, first.body.txHash, TESTNET));
    const failed = await whileClosing(waitForStellar(call, second.body.txHash, TESTNET));
    expect(ok.status).toBe('SUCCESS');
    expect(failed.status).toBe('FAILED');
    expect(failed.receipt).toMatchObject({
      code: 'txFailed',
      operationCode: 'invokeHostFunctionTrapped',
      result: null,
    });
    expect(failed.errorInfo).toEqual({
      code: 'invokeHostFunctionTrapped',
      message: 'contract error #2 (AlreadyUsed)',
      contractError: { code: 2, name: 'AlreadyUsed' },
    });
    expect(failed.error).toBe('contract error #2 (AlreadyUsed)');
    expect(failed.receipt.fee_charged).toBeGreaterThan(0);
  });

  it('restores archived entries first when asked to, and says so when not', async () => {
    const address = await deployBehaviour();
    const counted = await invoke(address, 'count', false);
    expect((await whileClosing(waitForStellar(call, counted.body.txHash, TESTNET))).receipt.result).toBe(1);
    await closeLedgers(TTL + 5);
    const own = (await call('GET', `/stellar/v1/account?networkId=${TESTNET}`)).body.account;
    const instance = await call('GET', `/stellar/v1/contract/${address}/instancettl`, {
      blockchainNetwork: TESTNET,
      sourceAccount: own,
    });
    expect(instance.status).toBe(200);
    expect(instance.body.isAlive).toBe(false);
    expect(instance.body.liveUntilLedger).toBeLessThan(instance.body.latestLedger);

    const refused = await invoke(address, 'count', false);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('CG_ERR_STELLAR_ARCHIVED');
    expect(refused.body.message).toContain('restore: true');
    const estimate = await call('POST', '/stellar/v1/contract/invoke/estimate', {
      blockchainNetwork: TESTNET,
      address,
      method: 'count',
      params: [],
      restore: true,
    });
    expect(estimate.status).toBe(201);
    expect(estimate.body.restore).toBe(true);
    expect(estimate.body.restoreCost).toBeGreaterThan(0);
    const extend = await call('POST', '/stellar/v1/contract/invoke/extendttl', {
      blockchainNetwork: TESTNET,
      address,
      extend_to: 100,
    });
    expect(extend.status).toBe(400);
    expect(extend.body.code).toBe('CG_ERR_STELLAR_ARCHIVED');

    const restored = await invoke(address, 'count', true, 'restoreRef');
    expect(restored.status).toBe(200);
    const info = await whileClosing(waitForStellar(call, restored.body.txHash, TESTNET));
    expect(info.status).toBe('SUCCESS');
    expect(info.receipt.result).toBe(2);
    const records = (await call('GET', '/stellar/v1/transaction/reference/restoreRef')).body.info;
    expect(records.map((record: { kind: string }) => record.kind)).toEqual(['restore', 'invoke']);
    const restore = await whileClosing(waitForStellar(call, records[0].txHash, TESTNET));
    expect(restore).toMatchObject({ status: 'SUCCESS', kind: 'restore', myReference: 'restoreRef' });
    expect(restore.transaction.operations).toEqual([{ type: 'restoreFootprint' }]);
    expect(restore.transaction.sequence_number + 1).toBe(info.transaction.sequence_number);
  });
});

describe('a submission the network does not answer', () => {
  /** The record of the only transaction carrying `reference`, once it satisfies `done`. */
  async function recordOf(reference: string, done: (record: { status: string }) => boolean) {
    for (;;) {
      const records = (await call('GET', `/stellar/v1/transaction/reference/${reference}`)).body.info;
      if (records.length === 1 && done(records[0])) return records[0];
      await sandbox.closeLedger();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** The counter the invocation carrying `reference` returned, once in a ledger. */
  async function countOf(reference: string): Promise<number> {
    const record = await recordOf(reference, (found) => found.status !== 'PENDING');
    expect(record.status, JSON.stringify(record.errorInfo)).toBe('SUCCESS');
    return (await whileClosing(waitForStellar(call, record.txHash, RELAYED))).receipt.result;
  }

  it('keeps one that may have reached the network and submits it again, before the next request', async () => {
    const address = await deployBehaviour(RELAYED);
    // A fresh counter: both invocations below are simulated before its entry exists, and the second
    // lands after the first created it (live contract entries cost no disk read since protocol 23).
    relay.holdSends(true);
    const dropped = await invoke(address, 'count', false, 'dropped', RELAYED);
    // It went out and no answer came within the 1 s deadline: the network may have it, so it is kept.
    expect(dropped.status, dropped.text).toBe(200);
    expect(dropped.body).toMatchObject({
      status: 'PENDING',
      txHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect((await call('GET', '/stellar/v1/transaction/reference/dropped')).body.info[0].status).toBe(
      'PENDING',
    );
    await relay.release(false);
    relay.holdSends(false);

    // The next request's number follows the kept one, which the network lacks: the network refuses the
    // gap, the lane submits the kept envelope first, then the next one, long before the tracker's 5 s.
    const sendsBefore = relay.calls('sendTransaction');
    const next = await invoke(address, 'count', false, 'next', RELAYED);
    expect(next.status, next.text).toBe(200);
    expect(relay.calls('sendTransaction') - sendsBefore).toBe(3);
    expect(await countOf('dropped')).toBe(1);
    expect(await countOf('next')).toBe(2);
  });

  it('records once a kept one that the network did get late', async () => {
    const address = await deployBehaviour(RELAYED);
    relay.holdSends(true);
    const late = await invoke(address, 'count', false, 'late', RELAYED);
    expect(late.status, late.text).toBe(200);
    // The network gets it after the service stopped waiting. No ledger closes meanwhile, so the
    // tracker finds it still open after its 5 s and submits the same envelope again.
    await relay.release(true);
    relay.holdSends(false);
    const sendsBefore = relay.calls('sendTransaction');
    while (relay.calls('sendTransaction') === sendsBefore)
      await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await countOf('late')).toBe(1);
    const after = await whileClosing(invoke(address, 'count', false, 'afterLate', RELAYED));
    expect(after.status, after.text).toBe(200);
    // Counted once: a second landing of the kept one would have made this 3.
    expect(await countOf('afterLate')).toBe(2);
  });

  it('answers 503 for one that surely did not reach the network, and the retry takes its number', async () => {
    const address = await deployBehaviour(RELAYED);
    relay.refuse('sendTransaction', 401);
    const refused = await invoke(address, 'count', false, 'refused', RELAYED);
    relay.refuse('sendTransaction', undefined);
    expect(refused.status, refused.text).toBe(503);
    expect(refused.body.code).toBe('CG_ERR_STELLAR_UNREACHABLE');
    expect(refused.body.message).toContain('answered HTTP 401');
    expect(refused.body.message).toContain('sending it again is safe');
    const record = (await call('GET', '/stellar/v1/transaction/reference/refused')).body.info[0];
    expect(record).toMatchObject({ status: 'FAILED', errorInfo: { code: 'CG_ERR_STELLAR_UNREACHABLE' } });

    // The retry's first number leaves a gap where the refused one's was; the network refuses it, and
    // the lane signs it again under the free number.
    const retry = await invoke(address, 'count', false, 'retry', RELAYED);
    expect(retry.status, retry.text).toBe(200);
    expect(await countOf('retry')).toBe(1);
  });
});

describe('an idempotency key of a submission that did not reach the network', () => {
  it('is released: the retry with it submits anew', async () => {
    const address = await deployBehaviour(RELAYED);
    const keyedCount = () =>
      call(
        'POST',
        '/stellar/v1/contract/invoke',
        {
          blockchainNetwork: RELAYED,
          address,
          method: 'count',
          params: [],
          restore: false,
          myReference: 'keyedRefused',
        },
        { 'idempotency-key': 'refused-1' },
      );
    relay.refuse('sendTransaction', 401);
    const refused = await keyedCount();
    relay.refuse('sendTransaction', undefined);
    expect(refused.status, refused.text).toBe(503);
    const retry = await keyedCount();
    expect(retry.status, retry.text).toBe(200);
    // Not the refused record answered again: a second record, submitted, which lands. (Its hash may be the
    // refused one's: the same operation under the same, freed, sequence number within the same second.)
    const stored = (await call('GET', '/stellar/v1/transaction/reference/keyedRefused')).body.info;
    expect(stored).toHaveLength(2);
    const info = await whileClosing(waitForStellar(call, retry.body.txHash, RELAYED));
    expect(info).toMatchObject({ status: 'SUCCESS', receipt: { result: 1 } });
    expect((await keyedCount()).body).toEqual(retry.body);
  });
});

describe('a receipt whose contract spec the network does not give at first', () => {
  it('is finished once the spec can be read, with the contract error name', async () => {
    const address = await deployBehaviour(RELAYED);
    // A contract this store did not deploy: the tracker reads its spec from the network.
    await service.platform.db.query('DELETE FROM stellar_contracts WHERE address = $1', [address]);
    // Both simulate against the same state and go into one ledger: the second fails there.
    const first = await invoke(address, 'once', false, undefined, RELAYED);
    const failing = await invoke(address, 'once', false, 'specLater', RELAYED);
    expect([first.status, failing.status]).toEqual([200, 200]);
    relay.refuse('getLedgerEntries', 502);
    try {
      // In a ledger, and looked up; the spec cannot be read, so the record waits (before: it was
      // finished without the spec, and kept "contract error #2" without its name for good).
      const refusedBefore = relay.calls('getLedgerEntries');
      await sandbox.closeLedger();
      while (relay.calls('getLedgerEntries') === refusedBefore)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const [record] = (await call('GET', '/stellar/v1/transaction/reference/specLater')).body.info;
      expect(record.status).toBe('PENDING');
    } finally {
      relay.refuse('getLedgerEntries', undefined);
    }
    const finished = await whileClosing(waitForStellar(call, failing.body.txHash, RELAYED));
    expect(finished.errorInfo).toEqual({
      code: 'invokeHostFunctionTrapped',
      message: 'contract error #2 (AlreadyUsed)',
      contractError: { code: 2, name: 'AlreadyUsed' },
    });
  });
});

describe('networks that cannot be reached', () => {
  it('answers 503 with the reason, for a refused connection, a timeout and an HTTP error', async () => {
    const account = Keypair.random().publicKey();
    const refused = await call('GET', '/stellar/v1/account/balance', { account, networkId: FUTURENET });
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('CG_ERR_STELLAR_UNREACHABLE');
    expect(refused.body.message).toContain('refused the connection');
    const silent = await call('GET', '/stellar/v1/account/balance', { account, networkId: PUBNET });
    expect(silent.status).toBe(503);
    expect(silent.body.message).toContain('did not answer within 1 s');
    const failing = await call('GET', `/stellar/v1/account?networkId=${BROKEN}`);
    expect(failing.status).toBe(503);
    expect(failing.body.message).toContain('answered HTTP 500');
    const invokeSilent = await call('POST', '/stellar/v1/contract/invoke', {
      blockchainNetwork: PUBNET,
      address: 'CAAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQC526',
      method: 'count',
      params: [],
      restore: false,
    });
    expect(invokeSilent.status).toBe(503);
    const fund = await call('POST', '/stellar/v1/account/fund', { account, networkId: FUTURENET });
    expect(fund.status).toBe(503);
  });
});
