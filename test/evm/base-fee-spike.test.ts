import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, deployErc20, transferToken, waitForFinalStatus } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';

// The base fee can rise above the max fee a pending transaction was signed with; a node may then drop
// it from its pool and refuse the same bytes again ("max fee per gas less than block base fee"), as
// anvil does. That refusal is about the price only: the engine must sign the transaction again under
// its nonce at the current fees, not fail it and give its nonce away.
let service: TestService;
let call: ReturnType<typeof apiClient>;
let chain: ReturnType<typeof createPublicClient>;
let token: string;
const recipient = '0x000000000000000000000000000000000000beef';

beforeAll(async () => {
  // The default stuck-transaction delay (30 s): only the engine's look at the chain's nonces acts here.
  service = await startTestService({ CHAINGATE_SOROBAN: '0' });
  call = apiClient(service.url, service.auth);
  chain = createPublicClient({ chain: foundry, transport: http(service.credentials.devnetRpcUrl as string) });
  token = await deployErc20(call, service.credentials.sender, ['Spike', 'SPK', 1000]);
});
afterAll(async () => service?.close());

describe('a base fee that rises above pending transactions’ max fee', () => {
  it('signs them again at the current fees under the same nonces, and they are mined', async () => {
    const sender = service.credentials.sender as `0x${string}`;
    await chain.request({ method: 'evm_setIntervalMining' as never, params: [0] as never });
    await chain.request({ method: 'evm_setAutomine' as never, params: [false] as never });
    const start = await chain.getTransactionCount({ address: sender });
    const sends = [];
    for (let index = 0; index < 3; index++) {
      const sent = await transferToken(call, { token, sender, recipient }, { myReference: `spike${index}` });
      expect(sent.status, sent.text).toBe(201);
      sends.push(sent.body as { txHash: string; nonce: number });
    }
    // An empty block at a base fee of 10,000 gwei: the node drops the three and refuses them again.
    await chain.request({
      method: 'anvil_setNextBlockBaseFeePerGas' as never,
      params: [`0x${(10n ** 13n).toString(16)}`] as never,
    });
    await chain.request({ method: 'anvil_mine' as never, params: ['0x1'] as never });
    expect(await chain.getTransactionCount({ address: sender, blockTag: 'pending' })).toBe(start);
    await chain.request({ method: 'evm_setIntervalMining' as never, params: [1] as never });

    for (const [index, sent] of sends.entries()) {
      const status = await waitForFinalStatus(call, sent.txHash);
      expect(status.status, JSON.stringify(status)).toBe('confirmed');
      const record = (await call('GET', `/core/v1/evm/info/transaction/reference/spike${index}`)).body
        .info[0];
      // Re-signed: the same nonce under a new hash, and the status follows it.
      expect(record).toMatchObject({ nonce: start + index, status: 'confirmed' });
      expect(record.txHash).not.toBe(sent.txHash);
    }
    expect(await chain.getTransactionCount({ address: sender })).toBe(start + 3);
  });
});
