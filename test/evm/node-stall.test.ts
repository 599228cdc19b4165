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

  it('answers views, reads and an unsent send 503; a send whose broadcast went unanswered is kept and mined once', {
    timeout: 120_000,
  }, async () => {
    const chain = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
    const balanceOf = () =>
      call('POST', '/core/v1/evm/transact/view', {
        contractAddress: token,
        blockchainNetwork: 31337,
        method: 'balanceOf',
        params: [recipient],
      });
    const balanceBefore = await balanceOf();
    expect(balanceBefore.status).toBe(200);
    // Gas and fees given: nothing but the broadcast asks the node.
    const unasked = { useGasEstimation: false, gasLimit: 100000, gasPrice: 20, priorityFee: 1 };
    // Warms the service's per-sender state, so that the stalled send's broadcast is what times out.
    const warm = await transfer({ ...unasked, myReference: 'warm' });
    expect(warm.status, warm.text).toBe(201);

    process.kill(anvil.pid, 'SIGSTOP');
    let stalled: Awaited<ReturnType<typeof transfer>>[];
    let broadcast: Awaited<ReturnType<typeof transfer>>;
    try {
      [broadcast, ...stalled] = await Promise.all([
        transfer({ ...unasked, myReference: 'unanswered' }),
        transfer({ myReference: 'estimated' }),
        balanceOf(),
        call('GET', '/core/v1/evm/network/gasprice?network=31337'),
        call('GET', `/core/v1/evm/chain/${recipient}/balance?network=31337`),
        // A transaction the node did not answer about is not "not found" (a 404 before).
        call('GET', `/core/v1/evm/info/transaction/${warm.body.txHash}?network=31337`),
      ]);
      const health = await call('GET', '/health');
      expect(health.status).toBe(200); // a configured network is reported, not fatal
      expect(health.body.components['evm:31337']).toBe('down');
    } finally {
      process.kill(anvil.pid, 'SIGCONT');
    }
    for (const answer of stalled) {
      expect(answer.status, answer.text).toBe(503);
      expect(answer.body.code).toBe('ERROR_NODE_UNREACHABLE');
      expect(answer.body.message).toMatch(/did not answer in time/);
    }
    // The send whose estimate timed out was never signed: an `error` record with nothing on chain.
    const [estimated] = (await call('GET', '/core/v1/evm/info/transaction/reference/estimated')).body.info;
    expect(estimated).toMatchObject({ status: 'error', errorInfo: { code: 'ERROR_NODE_UNREACHABLE' } });
    if (estimated.txHash) {
      expect(
        await chain.request({ method: 'eth_getTransactionByHash', params: [estimated.txHash] }),
      ).toBeNull();
    }
    // The one whose raw transaction went to the stalled node may be in its pool: 201, and it is mined.
    expect(broadcast.status, broadcast.text).toBe(201);
    expect((await waitForFinalStatus(call, broadcast.body.txHash)).status).toBe('confirmed');

    // The client sends the 503'd one again: it pays once, and no nonce is skipped or used twice.
    const retry = await transfer({ myReference: 'retry' });
    expect(retry.status).toBe(201);
    expect(retry.body.nonce).toBe(broadcast.body.nonce + 1);
    expect((await waitForFinalStatus(call, retry.body.txHash)).status).toBe('confirmed');
    // The warm-up, the unanswered send and the retry: three units, not more.
    expect((await balanceOf()).body[0]).toBe(balanceBefore.body[0] + 3);
    expect(await chain.getTransactionCount({ address: sender })).toBe(retry.body.nonce + 1);
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
