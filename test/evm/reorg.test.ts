import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../support/anvil.ts';
import { apiClient, requestErc20Deploy, waitForFinalStatus } from '../support/api-client.ts';
import { externalNetworkEnv, networkConfigFile } from '../support/external-network.ts';
import { startTestService, type TestService } from '../support/service.ts';

let anvil: AnvilInstance;
let service: TestService;

beforeAll(async () => {
  anvil = await startAnvil({ blockTime: 1 });
  service = await startTestService(
    externalNetworkEnv(networkConfigFile(anvil.rpcUrl, { name: 'deep anvil', confirmations: 4 })),
  );
});
afterAll(async () => {
  await service?.close();
  await anvil?.stop();
});

it('waits for the confirmation depth and sends a reorged transaction back to processing until it is mined again', {
  timeout: 90_000,
}, async () => {
  const call = apiClient(service.url, service.auth);
  const chain = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
  // The faucet's anvil_setBalance must be deeper than the reorg, or the reorg takes the funds away too.
  const start = await chain.getBlockNumber();
  while ((await chain.getBlockNumber()) < start + 3n)
    await new Promise((resolve) => setTimeout(resolve, 200));
  const deploy = await requestErc20Deploy(call, service.credentials.sender, ['Deep', 'DP', 1]);
  expect(deploy.status).toBe(201);

  // Mined but not yet 4 blocks deep: processing.
  const statusOf = async () =>
    (await call('GET', `/core/v1/evm/info/transaction/${deploy.body.txHash}/status?network=31337`)).body;
  const deadline = Date.now() + 20_000;
  let status = await statusOf();
  while (status.status !== 'processing' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = await statusOf();
  }
  expect(status.status).toBe('processing');
  const minedIn = (await chain.getTransactionReceipt({ hash: deploy.body.txHash })).blockHash;

  // Replace the last blocks with others that do not hold the transaction.
  await chain.request({ method: 'anvil_reorg' as never, params: [2, []] as never });
  const receiptAfter = await chain.getTransactionReceipt({ hash: deploy.body.txHash }).catch(() => null);
  expect(receiptAfter?.blockHash).not.toBe(minedIn);

  const final = await waitForFinalStatus(call, deploy.body.txHash, 31337, 60_000);
  expect(final.status).toBe('confirmed');
  const receipt = await chain.getTransactionReceipt({ hash: deploy.body.txHash });
  expect(receipt.blockHash).not.toBe(minedIn);
  const head = await chain.getBlockNumber();
  expect(head - receipt.blockNumber + 1n).toBeGreaterThanOrEqual(4n);
});
