import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient, waitForFinalStatus } from '../support/api-client.ts';
import { HttpRefusal } from '../support/json-rpc-server.ts';
import { type RelayedService, startRelayedService } from '../support/relayed-service.ts';
import { storedTransaction } from '../support/stored-transaction.ts';

// A mined record waits for 30 blocks (9 s at 0.3 s a block). Meanwhile the node fails to give its block
// and receipts (a gateway's 502) for a while: that is a failed read, not a block the chain no longer
// has, so the record keeps its block instead of being taken back to "not mined".
let stack: RelayedService;
let failingBlock: string | undefined;
let refused = 0;

beforeAll(async () => {
  stack = await startRelayedService(
    async (item, forward) => {
      const failing =
        (item.method === 'eth_getBlockByNumber' && item.params?.[0] === failingBlock) ||
        (item.method === 'eth_getTransactionReceipt' && failingBlock !== undefined);
      if (failing) {
        refused++;
        throw new HttpRefusal(502, 'bad gateway');
      }
      return forward(item);
    },
    { network: { confirmations: 30 } },
  );
});
afterAll(() => stack?.close());

const storedRecord = (txHash: string) => storedTransaction(stack.service.platform.db, txHash);

it('keeps a mined record in its block while the node fails to give that block and receipts', {
  timeout: 60_000,
}, async () => {
  const { service } = stack;
  const call = apiClient(service.url, service.auth);
  const sent = await call('POST', '/core/v1/evm/chain/transfer', {
    sender: service.credentials.sender,
    recipient: '0x000000000000000000000000000000000000beef',
    blockchainNetwork: 31337,
    value: '1',
  });
  expect(sent.status, sent.text).toBe(201);
  let mined = await storedRecord(sent.body.txHash);
  while (mined?.block_hash === null || mined?.block_hash === undefined) {
    await sleep(50);
    mined = await storedRecord(sent.body.txHash);
  }
  expect(mined.state).toBe('processing');

  failingBlock = `0x${BigInt(mined.block_number as string).toString(16)}`;
  const seen = new Set<string>();
  for (const until = Date.now() + 2_500; Date.now() < until; await sleep(50)) {
    const row = await storedRecord(sent.body.txHash);
    seen.add(`${row?.state} ${row?.block_hash}`);
  }
  failingBlock = undefined;
  expect(refused).toBeGreaterThan(0);
  expect([...seen]).toEqual([`processing ${mined.block_hash}`]);

  expect((await waitForFinalStatus(call, sent.body.txHash)).status).toBe('confirmed');
  expect(await storedRecord(sent.body.txHash)).toMatchObject({
    state: 'confirmed',
    block_hash: mined.block_hash,
  });
});
