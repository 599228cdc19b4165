import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../support/anvil.ts';
import { apiClient } from '../support/api-client.ts';
import { externalNetworkEnv, networkConfigFile } from '../support/external-network.ts';
import { startTestService, type TestService } from '../support/service.ts';

// The engine signs EIP-1559 transactions only. A chain before London has no base fee: viem's fee
// estimate threw, and a send answered 500.
describe('a network before London (no EIP-1559 base fee)', () => {
  let anvil: AnvilInstance;
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  const recipient = '0x000000000000000000000000000000000000beef';

  beforeAll(async () => {
    anvil = await startAnvil({ hardfork: 'berlin' });
    service = await startTestService(externalNetworkEnv(networkConfigFile(anvil.rpcUrl)));
    call = apiClient(service.url, service.auth);
  });
  afterAll(async () => {
    await service?.close();
    await anvil?.stop();
  });

  it('refuses a send with 400 CG_ERR_NETWORK_UNSUPPORTED that says why, and still reads', async () => {
    const sent = await call('POST', '/core/v1/evm/chain/transfer', {
      sender: service.credentials.sender,
      recipient,
      blockchainNetwork: 31337,
      value: '1',
      myReference: 'beforeLondon',
    });
    expect(sent.status, sent.text).toBe(400);
    expect(sent.body.code, sent.text).toBe('CG_ERR_NETWORK_UNSUPPORTED');
    expect(sent.body.message).toMatch(/network 31337 has no EIP-1559 base fee/);
    const balance = await call('GET', `/core/v1/evm/chain/${recipient}/balance?network=31337`);
    expect(balance.status, balance.text).toBe(200);
    expect((await call('GET', '/core/v1/evm/network/gasprice?network=31337')).status).toBe(200);
  });
});
