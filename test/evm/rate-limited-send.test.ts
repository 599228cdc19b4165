import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient, waitForFinalStatus } from '../support/api-client.ts';
import { type RelayedService, startRelayedService } from '../support/relayed-service.ts';

/**
 * A hosted provider over its rate refuses a call before taking it (Alchemy's HTTP 429 answer, code 429).
 * Before, a refused broadcast was ERROR_REJECTED_BY_NODE, a 400 as if the request were at fault, and a
 * refused estimate "gas estimation failed: …", an ERROR_EXECUTION_REVERTED 400. Now both are 503
 * CG_ERR_DEPENDENCY, nothing reaches the chain, and the retry takes the same nonce: no gap. (A single 429
 * is retried by viem before the engine sees it.)
 */
let stack: RelayedService;
/** Methods the relay refuses, every time, until taken off the set. */
const refused = new Set<string>();

beforeAll(async () => {
  stack = await startRelayedService(async (item, forward) => {
    if (!refused.has(item.method)) return forward(item);
    const message = 'Your app has exceeded its compute units per second capacity';
    return { jsonrpc: '2.0', id: item.id, error: { code: 429, message } };
  });
});
afterAll(() => stack?.close());

it('answers a rate-limited send or estimate 503, sends nothing, and leaves no nonce gap', {
  timeout: 60_000,
}, async () => {
  const { service, anvil } = stack;
  const call = apiClient(service.url, service.auth);
  const sender = service.credentials.sender as `0x${string}`;
  const chain = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
  // Each a different value: identical sends within one block share one estimate.
  const transfer = (value: string) =>
    call('POST', '/core/v1/evm/chain/transfer', {
      sender,
      recipient: '0x000000000000000000000000000000000000beef',
      blockchainNetwork: 31337,
      value,
    });
  const nonceBefore = await chain.getTransactionCount({ address: sender });

  // viem retries a 429 itself (three times): the relay refuses until told otherwise.
  refused.add('eth_sendRawTransaction');
  const broadcastRefused = await transfer('1');
  refused.clear();
  expect(broadcastRefused.status, broadcastRefused.text).toBe(503);
  expect(broadcastRefused.body.code).toBe('CG_ERR_DEPENDENCY');
  expect(broadcastRefused.body.message).toMatch(/refused the call for its rate limit/);

  refused.add('eth_estimateGas');
  const estimateRefused = await transfer('2');
  refused.clear();
  expect(estimateRefused.status, estimateRefused.text).toBe(503);
  expect(estimateRefused.body.code).toBe('CG_ERR_DEPENDENCY');

  const retry = await transfer('3');
  expect(retry.status, retry.text).toBe(201);
  expect(retry.body.nonce).toBe(nonceBefore);
  expect((await waitForFinalStatus(call, retry.body.txHash)).status).toBe('confirmed');
  expect(await chain.getTransactionCount({ address: sender })).toBe(nonceBefore + 1);
});
