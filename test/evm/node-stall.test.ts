import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../support/anvil.ts';
import { apiClient, deployErc20, waitForFinalStatus } from '../support/api-client.ts';
import { externalNetworkEnv, networkConfigFile } from '../support/external-network.ts';
import { startTestService, type TestService } from '../support/service.ts';

const recipient = '0x000000000000000000000000000000000000beef';

describe('a configured node that stalls (SIGSTOP), with a 1.5 s node timeout', () => {
  let anvil: AnvilInstance;
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  let token: `0x${string}`;
  let sender: `0x${string}`;

  beforeAll(async () => {
    anvil = await startAnvil({ blockTime: 0.2 });
    service = await startTestService(
      externalNetworkEnv(networkConfigFile(anvil.rpcUrl, { rpcTimeoutMs: 1500 })),
    );
    call = apiClient(service.url, service.auth);
    sender = service.credentials.sender as `0x${string}`;
    token = await deployErc20(call, sender, ['Stall', 'STL', 1000]);
  });
  afterAll(async () => {
    if (anvil) process.kill(anvil.pid, 'SIGCONT');
    await service?.close();
    await anvil?.stop();
  });

  const transfer = (extra: Record<string, unknown> = {}) =>
    call('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: token,
      sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [recipient, 1],
      ...extra,
    });

  it('answers sends, views and reads 503 ERROR_NODE_UNREACHABLE, and never broadcasts a send answered 503', {
    timeout: 120_000,
  }, async () => {
    const chain = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
    const balanceBefore = await call('POST', '/core/v1/evm/transact/view', {
      contractAddress: token,
      blockchainNetwork: 31337,
      method: 'balanceOf',
      params: [recipient],
    });
    expect(balanceBefore.status).toBe(200);
    // A send whose estimate was made before the stall, so the broadcast itself is what times out.
    await transfer({ useGasEstimation: false, gasLimit: 100000, myReference: 'warm' });

    process.kill(anvil.pid, 'SIGSTOP');
    let stalled: Awaited<ReturnType<typeof transfer>>[];
    try {
      stalled = await Promise.all([
        transfer({ myReference: 'estimated' }),
        transfer({ useGasEstimation: false, gasLimit: 100000, myReference: 'unestimated' }),
        call('POST', '/core/v1/evm/transact/view', {
          contractAddress: token,
          blockchainNetwork: 31337,
          method: 'balanceOf',
          params: [recipient],
        }),
        call('GET', '/core/v1/evm/network/gasprice?network=31337'),
        call('GET', `/core/v1/evm/chain/${recipient}/balance?network=31337`),
      ]);
      const health = await call('GET', '/health');
      expect(health.status).toBe(200); // a configured network is reported, not fatal
      expect(health.body.components['evm:31337']).toBe('down');
    } finally {
      process.kill(anvil.pid, 'SIGCONT');
    }
    for (const answer of stalled) {
      expect(answer.status).toBe(503);
      expect(answer.body.code).toBe('ERROR_NODE_UNREACHABLE');
    }

    // Every 503'd send is an `error` record and never reaches the chain, even after the node returns.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    for (const reference of ['estimated', 'unestimated']) {
      const records = (await call('GET', `/core/v1/evm/info/transaction/reference/${reference}`)).body.info;
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ status: 'error', errorInfo: { code: 'ERROR_NODE_UNREACHABLE' } });
      if (records[0].txHash) {
        expect(
          await chain.request({ method: 'eth_getTransactionByHash', params: [records[0].txHash] }),
        ).toBeNull();
      }
    }
    // The client retries: it pays once.
    const retry = await transfer({ myReference: 'retry' });
    expect(retry.status).toBe(201);
    expect((await waitForFinalStatus(call, retry.body.txHash)).status).toBe('confirmed');
    const after = await call('POST', '/core/v1/evm/transact/view', {
      contractAddress: token,
      blockchainNetwork: 31337,
      method: 'balanceOf',
      params: [recipient],
    });
    // The warm-up transfer and the retry: two units, not more.
    expect(after.body[0]).toBe(balanceBefore.body[0] + 2);
    expect((await call('GET', '/health')).body.components['evm:31337']).toBe('up');
  });
});

describe('the embedded devnet stalls', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.close();
  });

  it('makes /health answer 503 with the devnet down, and 200 again once it answers', {
    timeout: 60_000,
  }, async () => {
    const call = apiClient(service.url, service.auth);
    expect((await call('GET', '/health')).status).toBe(200);
    const { pid } = JSON.parse(readFileSync(join(service.dataDir, 'devnet', 'anvil.pid'), 'utf8')) as {
      pid: number;
    };
    process.kill(pid, 'SIGSTOP');
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const health = await call('GET', '/health');
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: 'degraded', components: { devnet: 'down', store: 'up' } });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const again = await call('GET', '/health');
    expect(again.status).toBe(200);
    expect(again.body.components).toMatchObject({ devnet: 'up', store: 'up', soroban: 'up' });
  });
});
