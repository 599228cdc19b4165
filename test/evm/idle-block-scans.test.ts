import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../support/anvil.ts';
import { apiClient, waitForFinalStatus } from '../support/api-client.ts';
import { type CountingRelay, startCountingRelay } from '../support/counting-relay.ts';
import { externalNetworkEnv, networkConfigFile } from '../support/external-network.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * What an idle service asks its node. Blocks are read whole (eth_getBlockReceipts) only while a record
 * is open on the network, and a block's header once: an idle service on a public network would
 * otherwise download every block's receipts, other people's transactions included, and re-read the
 * head on every tick. The chain here carries such foreign traffic, sent straight to anvil.
 */
let anvil: AnvilInstance;
let relay: CountingRelay;
let service: TestService;
let chain: ReturnType<typeof createPublicClient>;

// anvil's first two unlocked dev accounts: foreign traffic the service knows nothing about.
const stranger = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const strangersFriend = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

beforeAll(async () => {
  anvil = await startAnvil({ blockTime: 0.5 });
  chain = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
  relay = await startCountingRelay(anvil.rpcUrl);
  service = await startTestService(externalNetworkEnv(networkConfigFile(relay.url)));
});
afterAll(async () => {
  await service?.close();
  relay?.close();
  await anvil?.stop();
});

/** Sends foreign transfers straight to anvil until `blocks` more blocks with them are mined. */
async function foreignTrafficFor(blocks: number): Promise<void> {
  const start = await chain.getBlockNumber({ cacheTime: 0 });
  const deadline = Date.now() + 60_000;
  const withTraffic = new Set<bigint>();
  while (withTraffic.size < blocks) {
    if (Date.now() > deadline) throw new Error('anvil mined no blocks');
    const hash = (await chain.request({
      method: 'eth_sendTransaction' as never,
      params: [{ from: stranger, to: strangersFriend, value: '0x1' }] as never,
    })) as `0x${string}`;
    const receipt = await chain.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    if (receipt.blockNumber > start) withTraffic.add(receipt.blockNumber);
  }
}

/** How often the service has asked its node for `method` since the counts were cleared. */
const asked = (method: string) => relay.counts.get(method) ?? 0;

it('reads no block receipts while nothing is open, and reads them again for a send', {
  timeout: 120_000,
}, async () => {
  const call = apiClient(service.url, service.auth);
  // Let the first ticks (start-up recovery) pass, then count.
  await foreignTrafficFor(2);
  relay.counts.clear();
  await foreignTrafficFor(6);
  expect(asked('eth_blockNumber')).toBeGreaterThan(0);
  expect(asked('eth_getBlockReceipts')).toBe(0);

  const sent = await call('POST', '/core/v1/evm/chain/transfer', {
    sender: service.credentials.sender,
    recipient: strangersFriend,
    blockchainNetwork: 31337,
    value: '1',
  });
  expect(sent.status, sent.text).toBe(201);
  const final = await waitForFinalStatus(call, sent.body.txHash);
  expect(final.status).toBe('confirmed');
  // Found by reading its block, not only by the per-record receipt lookup that backs it up.
  expect(asked('eth_getBlockReceipts')).toBeGreaterThan(0);

  // Closed again: a tick under way may still finish one scan, so count from a block later.
  await foreignTrafficFor(1);
  relay.counts.clear();
  await foreignTrafficFor(6);
  expect(asked('eth_blockNumber')).toBeGreaterThan(0);
  expect(asked('eth_getBlockReceipts')).toBe(0);
});

it('reads a block header once, not again on every tick while the head stays', {
  timeout: 120_000,
}, async () => {
  // Ticks come every 200 ms and blocks every 500 ms: re-reading an unchanged head would be ~2.5 reads
  // a block.
  await foreignTrafficFor(1);
  const from = await chain.getBlockNumber({ cacheTime: 0 });
  relay.counts.clear();
  await foreignTrafficFor(8);
  const to = await chain.getBlockNumber({ cacheTime: 0 });
  expect(asked('eth_blockNumber')).toBeGreaterThan(Number(to - from));
  expect(asked('eth_getBlockByNumber')).toBeLessThanOrEqual(Number(to - from) + 1);
});
