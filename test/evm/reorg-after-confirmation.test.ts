import { setTimeout as sleep } from 'node:timers/promises';
import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient, deployErc20, waitForFinalStatus } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { storedTransaction } from '../support/stored-transaction.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.close());

const storedBlock = (txHash: string) => storedTransaction(service.platform.db, txHash);

it('notices a reorg under a record already confirmed (depth 0) and confirms it again in its new block', {
  timeout: 90_000,
}, async () => {
  const call = apiClient(service.url, service.auth);
  const chain = createPublicClient({
    chain: foundry,
    transport: http(service.credentials.devnetRpcUrl as string),
  });
  const token = await deployErc20(call, service.credentials.sender, ['Reorged', 'RG', 1000]);
  const sent = await call('POST', '/core/v1/evm/transact/mutable', {
    contractAddress: token,
    sender: service.credentials.sender,
    blockchainNetwork: 31337,
    method: 'transfer',
    params: ['0x000000000000000000000000000000000000d00d', 5],
  });
  expect(sent.status).toBe(201);
  expect((await waitForFinalStatus(call, sent.body.txHash)).status).toBe('confirmed');
  const minedIn = (await storedBlock(sent.body.txHash))?.block_hash;
  expect(minedIn).toBeTruthy();

  // Replace every block from the one holding the transfer, with mining paused so the depth is exact.
  await chain.request({ method: 'evm_setIntervalMining' as never, params: [0] as never });
  try {
    const receipt = await chain.getTransactionReceipt({ hash: sent.body.txHash });
    const depth = Number((await chain.getBlockNumber()) - receipt.blockNumber + 1n);
    await chain.request({ method: 'anvil_reorg' as never, params: [depth, []] as never });
  } finally {
    await chain.request({ method: 'evm_setIntervalMining' as never, params: [1] as never });
  }

  const deadline = Date.now() + 60_000;
  let stored = await storedBlock(sent.body.txHash);
  for (;;) {
    const onChain = await chain
      .getTransactionReceipt({ hash: stored?.tx_hash as `0x${string}` })
      .catch(() => null);
    if (stored?.state === 'confirmed' && onChain && stored.block_hash === onChain.blockHash) break;
    if (Date.now() > deadline) throw new Error(`record ${JSON.stringify(stored)} never matched the chain`);
    await sleep(200);
    stored = await storedBlock(sent.body.txHash);
  }
  expect(stored.block_hash).not.toBe(minedIn);
  const balance = await call('POST', '/core/v1/evm/transact/view', {
    contractAddress: token,
    blockchainNetwork: 31337,
    method: 'balanceOf',
    params: ['0x000000000000000000000000000000000000d00d'],
  });
  expect(balance.body).toEqual([5]);
});
