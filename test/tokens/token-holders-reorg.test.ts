import { createWalletClient, getAddress, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadStandardContracts } from '../../src/evm/contract-library/standard-contracts.ts';
import type { Database } from '../../src/platform/db/database.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { openPgliteDatabase } from '../../src/platform/db/pglite-database.ts';
import { devnetNetwork, type EvmNetwork } from '../../src/platform/networks/evm-networks.ts';
import { listHolderBalances } from '../../src/tokens/token-holders.repository.ts';
import { syncTokenHolders } from '../../src/tokens/token-holders.service.ts';
import { type AnvilInstance, startAnvil } from '../support/anvil.ts';
import { askNode, HttpRefusal, type JsonRpcServer, serveJsonRpc } from '../support/json-rpc-server.ts';

// Anvil's first well-known development key (public test material).
const devKey = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const a = getAddress('0x00000000000000000000000000000000000000aa');
const b = getAddress('0x00000000000000000000000000000000000000bb');
const c = getAddress('0x00000000000000000000000000000000000000cc');

let anvil: AnvilInstance;
let db: Database;
let network: EvmNetwork;
/** Anvil behind a relay that fails (HTTP 502) reads of the block numbered `failingBlock`. */
let relay: JsonRpcServer;
let relayed: EvmNetwork;
let failingBlock: string | undefined;
const asked: Array<{ method: string; params: unknown[] }> = [];

beforeAll(async () => {
  anvil = await startAnvil();
  db = await openPgliteDatabase(undefined);
  await migrate(db);
  network = devnetNetwork(anvil.rpcUrl);
  relay = await serveJsonRpc(async (item) => {
    asked.push({ method: item.method, params: item.params ?? [] });
    if (item.method === 'eth_getBlockByNumber' && item.params?.[0] === failingBlock)
      throw new HttpRefusal(502, 'bad gateway');
    return askNode(anvil.rpcUrl, item);
  });
  relayed = devnetNetwork(relay.url);
});
afterAll(async () => {
  await db?.close();
  await relay?.close();
  await anvil?.stop();
});

async function rpc(method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(anvil.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await response.json()) as { result: unknown }).result;
}

/** A fresh ERC-20 whose whole supply the development key holds, and a transfer of it that waits for its block. */
async function deployToken() {
  const erc20 = loadStandardContracts().find((contract) => contract.specName === 'ERC20');
  if (!erc20) throw new Error('no ERC20 artifact');
  const wallet = createWalletClient({
    account: privateKeyToAccount(devKey),
    chain: foundry,
    transport: http(anvil.rpcUrl),
  });
  const deployHash = await wallet.deployContract({
    abi: erc20.abi,
    bytecode: erc20.bytecode,
    args: ['T', 'T', 1n],
  });
  const deployed = await network.client.waitForTransactionReceipt({ hash: deployHash });
  const address = getAddress(deployed.contractAddress as Hex);
  const transfer = async (to: Hex, amount: bigint) => {
    const hash = await wallet.writeContract({
      address,
      abi: erc20.abi,
      functionName: 'transfer',
      args: [to, amount],
    });
    await network.client.waitForTransactionReceipt({ hash });
  };
  const contract = { address, standard: 'ERC20' as const, deployBlock: deployed.blockNumber };
  const balances = async () => {
    const { rows } = await listHolderBalances(db, {
      chainId: network.chainId,
      contractAddress: address,
      grouping: 'holder',
      tokenId: undefined,
      limit: 10,
      offset: 0,
    });
    return Object.fromEntries(rows.map((row) => [getAddress(row.holder), BigInt(row.balance)]));
  };
  return { wallet, contract, transfer, balances, supply: 10n ** 18n };
}

it('rebuilds the holders of a token when the chain drops the block it had scanned', async () => {
  const { wallet, contract, transfer, balances, supply } = await deployToken();

  await transfer(a, 100n);
  expect((await syncTokenHolders(db, network, contract)).upToDate).toBe(true);
  const snapshot = await rpc('evm_snapshot');
  await transfer(b, 50n);
  await syncTokenHolders(db, network, contract);
  expect(await balances()).toEqual({ [wallet.account.address]: supply - 150n, [a]: 100n, [b]: 50n });

  // The block with the transfer to b is replaced by one with a transfer to c, plus one more block.
  await rpc('evm_revert', [snapshot]);
  await transfer(c, 7n);
  await rpc('anvil_mine', ['0x1']);
  const state = await syncTokenHolders(db, network, contract);
  expect(state).toEqual({
    scannedBlock: await network.client.getBlockNumber({ cacheTime: 0 }),
    upToDate: true,
  });
  expect(await balances()).toEqual({ [wallet.account.address]: supply - 107n, [a]: 100n, [c]: 7n });
});

it('keeps the holders index when the node fails to give the scanned block, and goes on once it does', async () => {
  const { wallet, contract, transfer, balances, supply } = await deployToken();
  await transfer(a, 100n);
  const first = await syncTokenHolders(db, relayed, contract);
  expect(first.upToDate).toBe(true);
  await transfer(b, 50n);

  // A failed read is not a reorg: the index is neither restarted nor advanced, and says it is behind.
  failingBlock = `0x${(first.scannedBlock as bigint).toString(16)}`;
  asked.length = 0;
  expect(await syncTokenHolders(db, relayed, contract)).toEqual({
    scannedBlock: first.scannedBlock,
    upToDate: false,
  });
  expect(asked.filter((call) => call.method === 'eth_getLogs')).toEqual([]);
  expect(await balances()).toEqual({ [wallet.account.address]: supply - 100n, [a]: 100n });

  failingBlock = undefined;
  expect((await syncTokenHolders(db, relayed, contract)).upToDate).toBe(true);
  expect(await balances()).toEqual({ [wallet.account.address]: supply - 150n, [a]: 100n, [b]: 50n });
});
