import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../support/anvil.ts';
import { apiClient, waitForFinalStatus } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';

let anvil: AnvilInstance;
let service: TestService;

beforeAll(async () => {
  anvil = await startAnvil({ blockTime: 1 });
  const configFile = join(mkdtempSync(join(tmpdir(), 'cg-reorg-')), 'config.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      evm: {
        networks: [
          {
            chainId: 31337,
            name: 'deep anvil',
            symbol: 'ETH',
            rpcUrls: [anvil.rpcUrl],
            confirmations: 4,
            devnetFaucet: true,
          },
        ],
      },
    }),
  );
  service = await startTestService({
    CHAINGATE_DEVNET: '0',
    CHAINGATE_SOROBAN: '0',
    CHAINGATE_CONFIG: configFile,
  });
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
  const specs = await call('GET', '/core/v1/evm/info/specs');
  const deploy = await call('POST', '/core/v1/evm/contract/deploy', {
    contractSpecsId: specs.body.find((s: { name: string }) => s.name === 'ERC20').id,
    sender: service.credentials.sender,
    blockchainNetwork: 31337,
    params: ['Deep', 'DP', 1],
  });
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
