import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, waitForFinalStatus } from '../support/api-client.ts';
import type { RpcError } from '../support/json-rpc-server.ts';
import { type RelayedService, startRelayedService } from '../support/relayed-service.ts';

/**
 * The engine reads new blocks whole with eth_getBlockReceipts, and looks records up one by one when the
 * node lacks that method. Only a node that says so loses the block reads: before, any failure of one
 * call (a timeout, a provider's rate limit) turned them off for the life of the process.
 */
describe.each([
  [
    'a node without eth_getBlockReceipts',
    { code: -32601, message: 'the method eth_getBlockReceipts does not exist/is not available' },
    Number.POSITIVE_INFINITY,
  ],
  ['a node that rate-limits eth_getBlockReceipts twice', { code: -32005, message: 'limit exceeded' }, 2],
] as const)('%s', (_, refusal: RpcError, refusals: number) => {
  let stack: RelayedService;
  const asked = { refused: 0, answered: 0 };

  beforeAll(async () => {
    stack = await startRelayedService(async (item, forward) => {
      if (item.method !== 'eth_getBlockReceipts') return forward(item);
      if (asked.refused < refusals) {
        asked.refused++;
        return { jsonrpc: '2.0', id: item.id, error: refusal };
      }
      asked.answered++;
      return forward(item);
    });
  });
  afterAll(() => stack?.close());

  it('confirms every send, and reads blocks whole unless the node lacks the method', {
    timeout: 60_000,
  }, async () => {
    const { service } = stack;
    const call = apiClient(service.url, service.auth);
    const send = () =>
      call('POST', '/core/v1/evm/chain/transfer', {
        sender: service.credentials.sender,
        recipient: '0x000000000000000000000000000000000000beef',
        blockchainNetwork: 31337,
        value: '1',
      });
    for (let round = 0; round < 3; round++) {
      const sent = await send();
      expect(sent.status, sent.text).toBe(201);
      expect((await waitForFinalStatus(call, sent.body.txHash)).status).toBe('confirmed');
    }
    if (refusals === Number.POSITIVE_INFINITY) {
      // Asked once, refused, and not asked again: the records were looked up one by one.
      expect(asked).toEqual({ refused: 1, answered: 0 });
    } else {
      expect(asked.refused).toBe(refusals);
      expect(asked.answered).toBeGreaterThan(0);
    }
  });
});
