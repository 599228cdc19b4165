import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../../../test/support/anvil.ts';
import {
  askNode,
  HttpRefusal,
  type JsonRpcServer,
  serveJsonRpc,
} from '../../../test/support/json-rpc-server.ts';
import { devnetNetwork } from '../../platform/networks/evm-networks.ts';
import { CanonicalChain } from './canonical-chain.ts';

// Anvil mining only when told, behind a relay that fails (HTTP 502) reads of one block number.
let anvil: AnvilInstance;
let relay: JsonRpcServer;
let failingBlock: string | undefined;

beforeAll(async () => {
  anvil = await startAnvil();
  relay = await serveJsonRpc(async (item) => {
    if (item.method === 'eth_getBlockByNumber' && item.params?.[0] === failingBlock)
      throw new HttpRefusal(502, 'bad gateway');
    return askNode(anvil.rpcUrl, item);
  });
});
afterAll(async () => {
  await relay?.close();
  await anvil?.stop();
});

const anvilCall = (method: string, params: unknown[] = []) =>
  askNode(anvil.rpcUrl, { jsonrpc: '2.0', id: 1, method, params });

async function mine(): Promise<bigint> {
  await anvilCall('anvil_mine', ['0x1']);
  return BigInt((await anvilCall('eth_blockNumber')).result as string);
}

it('reports the whole depth of a reorg even when a block read failed in the middle of the walk back', async () => {
  const network = devnetNetwork(relay.url);
  const chain = new CanonicalChain(network);
  // Hashes of three blocks followed one by one.
  let head = await mine();
  await mine();
  head = await mine();
  const firstFollowed = head;
  expect(await chain.follow(firstFollowed)).toBeUndefined();
  head = await mine();
  expect(await chain.follow(head)).toBeUndefined();
  head = await mine();
  expect(await chain.follow(head)).toBeUndefined();

  // The three followed blocks are replaced, and one more block comes on top.
  await anvilCall('anvil_reorg', [3, []]);
  head = await mine();

  // The walk back from the new block fails at the middle one: nothing is concluded (before: the fork
  // point found so far, one block too shallow, and the deeper one never reported).
  failingBlock = `0x${(firstFollowed + 1n).toString(16)}`;
  expect(await chain.follow(head)).toBeUndefined();
  failingBlock = undefined;
  expect(await chain.follow(head)).toBe(firstFollowed);
  expect(await chain.follow(head)).toBeUndefined();
});
