import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';

let service: TestService;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  service = await startTestService({ CHAINGATE_SOROBAN: '0' });
  call = apiClient(service.url, service.auth);
});
afterAll(async () => service?.close());

const someone = '0x000000000000000000000000000000000000dEaD';
const garbage: unknown[] = [null, 'x', -1, 1.5, [], {}, [1, 2], { a: 1 }, '0x', true, '9'.repeat(90)];

/** Every field of every EVM endpoint set to every garbage value: 4xx with a message, never a 5xx. */
it('answers malformed input with 4xx and a message, never 500', { timeout: 120_000 }, async () => {
  const requests: Array<[string, string, Record<string, unknown>]> = [
    [
      'POST',
      '/core/v1/evm/contract/deploy',
      {
        contractSpecsId: 1,
        sender: service.credentials.sender,
        blockchainNetwork: 31337,
        params: ['a', 'b', 1],
      },
    ],
    [
      'POST',
      '/core/v1/evm/transact/mutable',
      {
        contractAddress: someone,
        contractSpecsId: 1,
        sender: service.credentials.sender,
        blockchainNetwork: 31337,
        method: 'transfer',
        params: [someone, 1],
      },
    ],
    [
      'POST',
      '/core/v1/evm/transact/view',
      {
        contractAddress: someone,
        contractSpecsId: 1,
        blockchainNetwork: 31337,
        method: 'balanceOf',
        params: [someone],
      },
    ],
    [
      'POST',
      '/core/v1/evm/contract/deploy/estimategas',
      { contractSpecsId: 1, sender: someone, blockchainNetwork: 31337, params: ['a', 'b', 1] },
    ],
    [
      'POST',
      '/core/v1/evm/transact/mutable/estimategas',
      {
        contractAddress: someone,
        contractSpecsId: 1,
        sender: someone,
        blockchainNetwork: 31337,
        method: 'transfer',
        params: [someone, 1],
      },
    ],
    [
      'POST',
      '/core/v1/evm/chain/transfer/estimategas',
      { sender: someone, recipient: someone, blockchainNetwork: 31337, value: 1 },
    ],
    [
      'POST',
      '/core/v1/evm/info/specs',
      { name: 'n', abi: [{ type: 'function', name: 'f', inputs: [], outputs: [] }] },
    ],
  ];
  const serverErrors: string[] = [];
  for (const [method, path, valid] of requests) {
    for (const field of Object.keys(valid)) {
      for (const value of garbage) {
        const body = { ...valid, [field]: value };
        const answer = await call(method, path, body);
        if (answer.status >= 500)
          serverErrors.push(`${path} ${field}=${JSON.stringify(value)} → ${answer.status} ${answer.text}`);
        else if (answer.status >= 400) expect(typeof answer.body?.message).toBe('string');
      }
    }
  }
  for (const path of [
    '/core/v1/evm/info/transaction/0x12/status?network=31337',
    '/core/v1/evm/info/transaction/reference/not-alphanumeric!',
    `/core/v1/evm/info/transaction/0x${'ab'.repeat(32)}?network=abc`,
    `/core/v1/evm/chain/${someone}/balance`,
    '/core/v1/evm/chain/0xnothex/balance?network=31337',
    `/core/v1/evm/info/address/${someone}/iscontract?network=99999`,
    '/core/v1/evm/network/gasprice?network=-5',
  ]) {
    const answer = await call('GET', path);
    if (answer.status >= 500 || answer.status < 400)
      serverErrors.push(`GET ${path} → ${answer.status} ${answer.text}`);
  }
  const broken = await fetch(`${service.url}/core/v1/evm/transact/mutable`, {
    method: 'POST',
    headers: { ...service.auth, 'content-type': 'application/json' },
    body: '{"contractAddress":',
  });
  expect(broken.status).toBe(400);
  expect(serverErrors).toEqual([]);
});
