import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../src/platform/net/free-port.ts';
import { type AnvilInstance, startAnvil } from '../support/anvil.ts';
import { apiClient, deployErc20, waitForFinalStatus } from '../support/api-client.ts';
import { externalNetworkEnv, networkConfigFile } from '../support/external-network.ts';
import { startTestService, type TestService } from '../support/service.ts';

// Views reach the node through `EvmNetwork.rpc`, the transport's own request: with several URLs that is
// viem's fallback transport, which must still pass over a URL where nothing listens.
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
