import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { LOCAL, savedId, waitForStellar } from './support/stellar-api.ts';
import { behaviourWasm } from './support/test-contracts.ts';

// Stellar submissions take the EVM sends' Idempotency-Key: a repeated request is answered from the store
// before anything is simulated or signed, and the store holds each application's keys unique.
let service: TestService;
let call: ReturnType<typeof apiClient>;
let specId: number;
let counter: string;

/** The client, sending `key` as the Idempotency-Key on every request. */
const keyed =
  (key: string): typeof call =>
  (method, path, body, headers = {}) =>
    call(method, path, body, { ...headers, 'idempotency-key': key });

const count = (key: string, myReference: string, client = keyed(key)) =>
  client('POST', '/stellar/v1/contract/invoke', {
    blockchainNetwork: LOCAL,
    address: counter,
    method: 'count',
    params: [],
    restore: false,
    myReference,
  });

/** The counter value the invocation `txHash` returned, once in a ledger. */
async function counted(txHash: string): Promise<number> {
  const info = await waitForStellar(call, txHash);
  expect(info.status).toBe('SUCCESS');
  return Number(info.receipt.result);
}

const records = async (reference: string) =>
  (await call('GET', `/stellar/v1/transaction/reference/${reference}`)).body.info as Array<{
    txHash: string;
  }>;

beforeAll(async () => {
  service = await startTestService({ CHAINGATE_DEVNET: '0', LOG_LEVEL: 'error' });
  call = apiClient(service.url, service.auth);
  specId = await savedId(service.url, service.auth, await behaviourWasm(), 'behaviour');
  const deploy = await call('POST', '/stellar/v1/contract/deployment', {
    contractSpecsId: specId,
    blockchainNetwork: LOCAL,
  });
  expect(deploy.status, deploy.text).toBe(201);
  expect((await waitForStellar(call, deploy.body.txHash)).status).toBe('SUCCESS');
  counter = deploy.body.address;
});
afterAll(async () => service?.close());

describe('Idempotency-Key on Stellar submissions', () => {
  it('answers a repeated invocation with the first transaction, and submits nothing more', async () => {
    const first = await count('inv-1', 'keyedInvoke');
    expect(first.status, first.text).toBe(200);
    const again = await count('inv-1', 'keyedInvoke');
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(first.body);
    const before = await counted(first.body.txHash);
    // Once in a ledger too.
    expect((await count('inv-1', 'keyedInvoke')).body).toEqual(first.body);
    expect(await records('keyedInvoke')).toEqual([expect.objectContaining({ txHash: first.body.txHash })]);
    const unkeyed = await count('unused', 'afterKeyed', call);
    expect(await counted(unkeyed.body.txHash)).toBe(before + 1);
  });

  it('submits one transaction for requests with one key sent at once', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => count('inv-burst', 'keyedBurst')));
    // Each is the transaction, or "in use" while the first was being submitted: none is a second one.
    for (const answer of answers) expect([200, 409], answer.text).toContain(answer.status);
    const submitted = answers.filter((answer) => answer.status === 200);
    expect(submitted.length).toBeGreaterThan(0);
    expect(new Set(submitted.map((answer) => answer.body.txHash)).size).toBe(1);
    for (const answer of answers.filter((answer) => answer.status === 409))
      expect(answer.body.code).toBe('CG_ERR_IDEMPOTENCY_KEY_IN_USE');
    const asked = await count('inv-burst', 'keyedBurst');
    expect(asked.body.txHash).toBe(submitted[0]?.body.txHash);
    expect(await records('keyedBurst')).toHaveLength(1);
  });

  it('refuses the key with a different request', async () => {
    const first = await count('inv-2', 'keyedTwice');
    expect(first.status, first.text).toBe(200);
    const other = await count('inv-2', 'keyedOther');
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('CG_ERR_IDEMPOTENCY_KEY_REUSED');
    expect(await records('keyedOther')).toEqual([]);
  });

  it('answers a repeated deployment with its address and salt, and a TTL extension with its outcome', async () => {
    const deploy = () =>
      keyed('deploy-1')('POST', '/stellar/v1/contract/deployment', {
        contractSpecsId: specId,
        blockchainNetwork: LOCAL,
      });
    const first = await deploy();
    expect(first.status, first.text).toBe(201);
    const again = await deploy();
    expect(again.status, again.text).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await waitForStellar(call, first.body.txHash)).status).toBe('SUCCESS');

    const extend = () =>
      keyed('ttl-1')('POST', '/stellar/v1/contract/invoke/extendttl', {
        blockchainNetwork: LOCAL,
        address: first.body.address,
        extend_to: 5_000,
      });
    const extended = await extend();
    expect(extended.status, extended.text).toBe(200);
    expect((await waitForStellar(call, extended.body.txHash)).status).toBe('SUCCESS');
    expect((await extend()).body).toEqual({ txHash: extended.body.txHash, status: 'SUCCESS' });
  });
});
