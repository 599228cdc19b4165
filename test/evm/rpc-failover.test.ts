import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../src/platform/net/free-port.ts';
import { type AnvilInstance, startAnvil } from '../support/anvil.ts';
import { apiClient, deployErc20, waitForFinalStatus } from '../support/api-client.ts';
import { externalNetworkEnv, networkConfigFile } from '../support/external-network.ts';
import { startTestService, type TestService } from '../support/service.ts';

// Views reach the node through `EvmNetwork.rpc`, the transport's own request: with several URLs that is
// the failover transport, which must pass over a URL where nothing listens, and over one that never
// answers without waiting for it on every call.
describe('a network whose first RPC URL is dead', () => {
  let anvil: AnvilInstance;
  let service: TestService;
  let call: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    anvil = await startAnvil({ blockTime: 0.2 });
    const dead = `http://127.0.0.1:${await findFreePort()}`;
    service = await startTestService(
      externalNetworkEnv(networkConfigFile(anvil.rpcUrl, { rpcUrls: [dead, anvil.rpcUrl] })),
    );
    call = apiClient(service.url, service.auth);
  });
  afterAll(async () => {
    await service?.close();
    await anvil?.stop();
  });

  it('deploys, sends and answers views through the second URL', async () => {
    const sender = service.credentials.sender;
    const token = await deployErc20(call, sender, ['Fallback', 'FBK', 1000]);
    const recipient = '0x000000000000000000000000000000000000f00d';
    const sent = await call('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: token,
      sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [recipient, 5],
    });
    expect(sent.status, sent.text).toBe(201);
    expect((await waitForFinalStatus(call, sent.body.txHash)).status).toBe('confirmed');
    const view = await call('POST', '/core/v1/evm/transact/view', {
      contractAddress: token,
      blockchainNetwork: 31337,
      method: 'balanceOf',
      params: [recipient],
    });
    expect(view.status, view.text).toBe(200);
    expect(view.body).toEqual([5]);
    // A revert still decodes through the fallback transport's errors (a transfer asked as a call).
    const reverted = await call('POST', '/core/v1/evm/transact/view', {
      contractAddress: token,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [recipient, '999999999999999999999999999'],
      sender: recipient,
    });
    expect(reverted.status, reverted.text).toBe(400);
    expect(reverted.body.code).toBe('ERROR_EXECUTION_REVERTED');
    expect(reverted.body.message).toContain('ERC20InsufficientBalance');
  });
});

/** A TCP server that reads HTTP requests and never answers; counts the requests it was sent. */
async function startBlackHole(): Promise<{ url: string; requests(): number; close(): Promise<void> }> {
  let requests = 0;
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (chunk: Buffer) => {
      requests += chunk.toString('latin1').match(/^POST /gm)?.length ?? 0;
    });
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('a network whose first RPC URL never answers (1.5 s node timeout)', () => {
  let anvil: AnvilInstance;
  let blackHole: Awaited<ReturnType<typeof startBlackHole>>;
  let service: TestService;
  let call: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    anvil = await startAnvil({ blockTime: 0.2 });
    blackHole = await startBlackHole();
    service = await startTestService(
      externalNetworkEnv(
        networkConfigFile(anvil.rpcUrl, { rpcUrls: [blackHole.url, anvil.rpcUrl], rpcTimeoutMs: 1500 }),
      ),
    );
    call = apiClient(service.url, service.auth);
  });
  afterAll(async () => {
    await service?.close();
    await blackHole?.close();
    await anvil?.stop();
  });

  it('waits for it once, then puts it behind the working URL instead of asking it first on every call', {
    timeout: 60_000,
  }, async () => {
    const token = await deployErc20(call, service.credentials.sender, ['Patient', 'PAT', 1000]);
    const view = () =>
      call('POST', '/core/v1/evm/transact/view', {
        contractAddress: token,
        blockchainNetwork: 31337,
        method: 'totalSupply',
        params: [],
      });
    // The silent URL was asked (and waited for) at least once while the service started and deployed.
    expect(blackHole.requests()).toBeGreaterThan(0);
    const before = blackHole.requests();
    for (let i = 0; i < 8; i++) {
      const answer = await view();
      expect(answer.status, answer.text).toBe(200);
    }
    // viem's fallback asked it first every time: 8 more requests (and 8 timeouts). At most one more here,
    // should its time behind the others end during the loop.
    expect(blackHole.requests() - before).toBeLessThanOrEqual(1);
  });
});
