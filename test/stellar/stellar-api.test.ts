import { Keypair, StrKey } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';
import {
  deployAndWait,
  invokeAndWait,
  LOCAL,
  savedId,
  saveWasm,
  waitForStellar,
} from './support/stellar-api.ts';
import { behaviourWasm, constructorWasm, fixture, typesWasm } from './support/test-contracts.ts';

let service: TestService;
let call: ReturnType<typeof apiClient>;
let own: string;
let types: { id: number; address: string };
let behaviour: { id: number; address: string };

beforeAll(async () => {
  service = await startTestService({ CHAINGATE_DEVNET: '0', LOG_LEVEL: 'error' });
  call = apiClient(service.url, service.auth);
  own = (await call('GET', `/stellar/v1/account?networkId=${LOCAL}`)).body.account;
  const typesId = await savedId(service.url, service.auth, await typesWasm(), 'types');
  const behaviourId = await savedId(service.url, service.auth, await behaviourWasm(), 'behaviour');
  types = { id: typesId, address: await deployAndWait(call, typesId) };
  behaviour = { id: behaviourId, address: await deployAndWait(call, behaviourId) };
});
afterAll(async () => service?.close());

async function otherApplication(plan: 'free' | 'premium' = 'premium') {
  const admin = apiClient(service.url, { authorization: `Bearer ${service.credentials.adminToken}` });
  const created = await admin('POST', '/admin/v1/applications', { name: `other-${plan}`, plan });
  expect(created.status).toBe(201);
  return apiClient(service.url, {
    authorization: `Bearer ${created.body.apiKey}`,
    'x-application-svc': created.body.applicationId,
  });
}

describe('accounts', () => {
  it("creates the application's account once, funded by the local friendbot", async () => {
    const again = await call('POST', '/stellar/v1/account', { networkId: LOCAL });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ account: own, networkId: LOCAL, funded: true });
    expect(again.body.balance).toBeGreaterThan(9_000);
  });

  it('creates one account when two first uses of a new application race', async () => {
    const other = await otherApplication();
    const answers = await Promise.all(
      [1, 2, 3].map(() => other('GET', `/stellar/v1/account?networkId=${LOCAL}`)),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.body.account)).size).toBe(1);
    expect(answers[0]?.body.account).not.toBe(own);
  });

  it('funds a new account (201), refuses a funded one (400), and reads its balance in lumens', async () => {
    const account = Keypair.random().publicKey();
    const fund = await call('POST', '/stellar/v1/account/fund', { account, networkId: LOCAL });
    expect(fund.status).toBe(201);
    expect(fund.body).toMatchObject({ account, networkId: LOCAL, funded: true });
    const funding = await waitForStellar(call, fund.body.txHash);
    expect(funding).toMatchObject({ status: 'SUCCESS', kind: null, error: '' });
    expect(funding.transaction.operations).toEqual([
      { type: 'createAccount', destination: account, startingBalance: '10000.0000000' },
    ]);
    expect(funding.receipt).toMatchObject({
      code: 'txSuccess',
      return_value: false,
      result: null,
      events: null,
    });
    const again = await call('POST', '/stellar/v1/account/fund', { account, networkId: LOCAL });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('CG_ERR_STELLAR_ALREADY_FUNDED');
    // GET with a JSON body, POST, and GET with a query string, as clients send them.
    for (const answer of [
      await call('GET', '/stellar/v1/account/balance', { account, networkId: LOCAL }),
      await call('POST', '/stellar/v1/account/balance', { account, network: LOCAL }),
      await call('GET', `/stellar/v1/account/balance?account=${account}&networkId=${LOCAL}`),
    ]) {
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ balance: 10_000, balanceStroops: '100000000000' });
    }
  });

  it('answers 400 for pubnet funding, an unknown account, an unknown network', async () => {
    const account = Keypair.random().publicKey();
    const pubnet = await call('POST', '/stellar/v1/account/fund', { account, networkId: 100_000_002 });
    expect(pubnet.status).toBe(400);
    expect(pubnet.body.code).toBe('CG_ERR_STELLAR_NO_FRIENDBOT');
    expect(pubnet.body.message).toContain('payment');
    const missing = await call('GET', '/stellar/v1/account/balance', { account, networkId: LOCAL });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('CG_ERR_STELLAR_UNKNOWN_ACCOUNT');
    const unknown = await call('POST', '/stellar/v1/account/fund', { account, networkId: 5 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('CG_ERR_UNKNOWN_NETWORK');
    const bad = await call('POST', '/stellar/v1/account/fund', { account: 'GABC', networkId: LOCAL });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('account');
    const free = await otherApplication('free');
    const forbidden = await free('GET', `/stellar/v1/account?networkId=${100_000_002}`);
    expect(forbidden.status).toBe(403);
  });

  it('answers 401 without credentials', async () => {
    const anonymous = apiClient(service.url, {});
    expect((await anonymous('GET', `/stellar/v1/account?networkId=${LOCAL}`)).status).toBe(401);
    expect((await anonymous('POST', '/stellar/v1/contract/invoke', {})).status).toBe(401);
  });
});

describe('saved contracts', () => {
  it('saves real soroban-sdk contracts and lists their methods', async () => {
    const id = await savedId(service.url, service.auth, fixture('hello_world.wasm'), 'hello');
    const methods = await call('GET', `/stellar/v1/contract/${id}/methods`, { blockchainNetwork: LOCAL });
    expect(methods.status).toBe(200);
    expect(methods.body.methods).toEqual(['hello(to: Symbol) -> Vec<Symbol>']);
    expect(methods.body.functions[0]).toEqual({
      name: 'hello',
      inputs: [{ name: 'to', type: 'Symbol' }],
      output: 'Vec<Symbol>',
      signature: 'hello(to: Symbol) -> Vec<Symbol>',
    });
    const typed = await call('POST', `/stellar/v1/contract/${types.id}/methods`, { network: LOCAL });
    expect(typed.body.methods).toContain('e_shape(v: Shape) -> Shape');
    expect(typed.body.methods).toContain('e_map(v: Map<Symbol, i128>) -> Map<Symbol, i128>');
    expect(typed.body.methods).toContain('pair(a: u32, b: i128) -> i128');
  });

  it('refuses what is not a Soroban contract, and incomplete forms, with 400', async () => {
    const notWasm = await saveWasm(service.url, service.auth, { file: Buffer.from('hello'), name: 'x' });
    expect(notWasm.status).toBe(400);
    expect(notWasm.body.code).toBe('CG_ERR_STELLAR_INVALID_WASM');
    const noSpec = await saveWasm(service.url, service.auth, {
      file: Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]),
      name: 'x',
    });
    expect(noSpec.body.message).toContain('contractspecv0');
    const truncated = await saveWasm(service.url, service.auth, {
      file: fixture('add_i32.wasm').subarray(0, 300),
      name: 'x',
    });
    expect(truncated.status).toBe(400);
    const noName = await saveWasm(service.url, service.auth, { file: fixture('add_i32.wasm') });
    expect(noName.status).toBe(400);
    expect(noName.body.message).toContain('name');
    const noFile = await saveWasm(service.url, service.auth, { name: 'x' });
    expect(noFile.status).toBe(400);
    expect(noFile.body.message).toContain('file');
    const extra = await saveWasm(service.url, service.auth, {
      file: fixture('add_i32.wasm'),
      name: 'x',
      extra: { z: '1' },
    });
    expect(extra.status).toBe(400);
    const json = await call('POST', '/stellar/v1/contract/save', { name: 'x' });
    expect(json.status).toBe(415);
  });

  it("keeps an application's saved contracts to itself", async () => {
    const other = await otherApplication();
    const methods = await other('GET', `/stellar/v1/contract/${types.id}/methods`, {
      blockchainNetwork: LOCAL,
    });
    expect(methods.status).toBe(400);
    expect(methods.body.code).toBe('CG_ERR_UNKNOWN_SPEC');
    const deploy = await other('POST', '/stellar/v1/contract/deployment', {
      contractSpecsId: types.id,
      blockchainNetwork: LOCAL,
    });
    expect(deploy.status).toBe(400);
    expect(deploy.body.message).toContain('contractSpecsId');
  });
});

describe('deployment', () => {
  it('estimates the upload before the wasm is on the network, then the creation', async () => {
    const id = await savedId(service.url, service.auth, fixture('add_i32.wasm'), 'add');
    const before = await call('POST', '/stellar/v1/contract/deployment/estimate', {
      contractSpecsId: id,
      blockchainNetwork: LOCAL,
    });
    expect(before.status).toBe(201);
    expect(before.body.uploadCost).toBeGreaterThan(0);
    expect(before.body).toMatchObject({ createCost: null, restore: false, restoreCost: 0 });
    await deployAndWait(call, id);
    const after = await call('POST', '/stellar/v1/contract/deployment/estimate', {
      contractSpecsId: id,
      network: LOCAL,
    });
    expect(after.body.uploadCost).toBe(0);
    expect(after.body.createCost).toBeGreaterThan(0);
    expect(after.body.estimatedCost).toBe(after.body.createCost);
  });

  it('deploys with constructor params, records myReference, and refuses wrong ones', async () => {
    const id = await savedId(service.url, service.auth, await constructorWasm(), 'ctor');
    const missing = await call('POST', '/stellar/v1/contract/deployment', {
      contractSpecsId: id,
      blockchainNetwork: LOCAL,
    });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('CG_ERR_PARAM_COUNT');
    expect(missing.body.message).toContain('init: u32');
    const wrong = await call('POST', '/stellar/v1/contract/deployment', {
      contractSpecsId: id,
      blockchainNetwork: LOCAL,
      params: ['x'],
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/^params\[0\] \(init: u32\): expected u32/);
    const deploy = await call('POST', '/stellar/v1/contract/deployment', {
      contractSpecsId: id,
      blockchainNetwork: LOCAL,
      params: [42],
      myReference: 'order42',
    });
    expect(deploy.status).toBe(201);
    expect(deploy.body.status).toBe('PENDING');
    expect(deploy.body.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(StrKey.isValidContract(deploy.body.address)).toBe(true);
    const info = await waitForStellar(call, deploy.body.txHash);
    expect(info.status).toBe('SUCCESS');
    expect(info.receipt.result).toBe(deploy.body.address);
    expect(info.transaction.operations[0]).toMatchObject({
      function: 'createContract',
      constructorArgs: [42],
    });
    const read = await invokeAndWait(call, deploy.body.address, 'init', []);
    expect(read.receipt.result).toBe(42);
    const noParams = await call('POST', '/stellar/v1/contract/deployment', {
      contractSpecsId: types.id,
      blockchainNetwork: LOCAL,
      params: [1],
    });
    expect(noParams.status).toBe(400);
    expect(noParams.body.message).toContain('no constructor');
    const byReference = await call('GET', '/stellar/v1/transaction/reference/order42');
    expect(byReference.body.info).toHaveLength(1);
    expect(byReference.body.info[0]).toMatchObject({
      txHash: deploy.body.txHash,
      kind: 'deploy',
      status: 'SUCCESS',
      contractAddress: deploy.body.address,
      myReference: 'order42',
    });
  });
});

describe('invocation', () => {
  it('converts every parameter type with the spec and decodes the return value with it', async () => {
    const contract = types.address;
    const cases: Array<[string, unknown, unknown]> = [
      ['e_bool', true, true],
      ['e_u32', '7', 7],
      ['e_i32', -7, -7],
      ['e_u64', '18446744073709551615', 18446744073709551615n],
      ['e_i64', -5, -5],
      ['e_u128', '340282366920938463463374607431768211455', 340282366920938463463374607431768211455n],
      ['e_i128', '-170141183460469231731687303715884105728', -170141183460469231731687303715884105728n],
      ['e_u256', String(2n ** 256n - 1n), 2n ** 256n - 1n],
      ['e_i256', '-5', -5],
      ['e_time', 1_700_000_000, 1_700_000_000],
      ['e_dur', 60, 60],
      ['e_sym', 'hello_1', 'hello_1'],
      ['e_str', 'héllo wörld', 'héllo wörld'],
      ['e_bytes', '0xDEADbeef', 'deadbeef'],
      ['e_bytes4', '01020304', '01020304'],
      ['e_addr', own, own],
      ['e_addr', contract, contract],
      ['e_vec', [1, '2', 3], [1, 2, 3]],
      ['e_map', { b: 2, a: '1' }, { a: 1, b: 2 }],
      ['e_opt', null, null],
      ['e_opt', 5, 5],
      ['e_tuple', [1, true], [1, true]],
      ['e_point', { y: -2, x: 1 }, { x: 1, y: -2 }],
      ['e_pair', [7, 'sym'], [7, 'sym']],
      ['e_shape', 'Empty', 'Empty'],
      ['e_shape', { tag: 'Circle', values: [3] }, { tag: 'Circle', values: [3] }],
      ['e_color', 'Green', 2],
    ];
    // All at once: one lane gives them consecutive sequence numbers.
    const results = await Promise.all(
      cases.map(([method, value]) => invokeAndWait(call, contract, method, [value])),
    );
    for (const [index, [method, value, expected]] of cases.entries()) {
      const info = results[index];
      expect(info.status, `${method}(${JSON.stringify(value)})`).toBe('SUCCESS');
      expect(info.receipt.result, `${method}(${JSON.stringify(value)})`).toEqual(expected);
      expect(info.receipt.return_value).toBe(expected !== null);
    }
    const pair = await invokeAndWait(call, contract, 'pair', [1, '12345678901234567890']);
    expect(pair.receipt.result).toBe(12345678901234567890n);
    // Read again once the record is finished: the receipt comes from the store, still with every digit.
    const stored = await call('GET', `/stellar/v1/transaction/${pair.txHash}/info?network=${LOCAL}`);
    expect(stored.text).toContain('"result":12345678901234567890,');
    expect(pair.transaction.operations[0]).toMatchObject({
      method: 'pair',
      args: [1, 12345678901234567890n],
    });
  });

  it('answers 400 naming the parameter and the expected type', async () => {
    const invoke = (method: string, params: unknown[], address = types.address) =>
      call('POST', '/stellar/v1/contract/invoke', {
        blockchainNetwork: LOCAL,
        address,
        method,
        params,
        restore: false,
      });
    const expectations: Array<[string, unknown[], string]> = [
      ['e_u32', ['abc'], 'params[0] (v: u32): expected u32'],
      ['e_u32', [-1], 'params[0] (v: u32): expected u32'],
      ['e_i128', [1.5], 'params[0] (v: i128): expected i128'],
      ['e_addr', ['GXYZ'], 'params[0] (v: Address): expected Address'],
      ['e_bytes4', ['0102'], 'params[0] (v: BytesN<4>): expected BytesN<4>'],
      ['e_sym', ['has space'], 'params[0] (v: Symbol): expected Symbol'],
      ['e_vec', [[1, 'x']], 'params[0] (v: Vec<u32>)[1]: expected u32'],
      ['e_point', [{ x: 1 }], 'params[0] (v: Point).y: expected i32'],
      ['e_shape', ['Square'], 'params[0] (v: Shape): expected Shape (one of Empty, Circle'],
      ['e_tuple', [[1]], 'params[0] (v: (u32, bool)): expected (u32, bool)'],
      ['pair', [1], 'params: pair takes 2 parameter(s) (a: u32, b: i128), got 1'],
    ];
    for (const [method, params, message] of expectations) {
      const answer = await invoke(method, params);
      expect(answer.status, `${method} ${JSON.stringify(params)}`).toBe(400);
      expect(answer.body.message).toContain(message);
    }
    const unknownMethod = await invoke('nope', []);
    expect(unknownMethod.status).toBe(400);
    expect(unknownMethod.body.code).toBe('CG_ERR_UNKNOWN_METHOD');
    expect(unknownMethod.body.message).toContain('e_u32');
    const nowhere = await invoke('e_u32', [1], StrKey.encodeContract(Buffer.alloc(32, 9)));
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.code).toBe('CG_ERR_STELLAR_UNKNOWN_CONTRACT');
    const badAddress = await invoke('e_u32', [1], 'not-a-contract');
    expect(badAddress.status).toBe(400);
    expect(badAddress.body.message).toContain('address');
  });

  it('decodes events, estimates the cost, and keeps myReference', async () => {
    const estimate = await call('POST', '/stellar/v1/contract/invoke/estimate', {
      blockchainNetwork: LOCAL,
      contract: behaviour.address,
      method: 'emit',
      params: [5],
      restore: false,
    });
    expect(estimate.status).toBe(201);
    expect(estimate.body.estimatedCost).toBeGreaterThan(0);
    expect(estimate.body).toMatchObject({ restore: false, restoreCost: 0 });
    const invoke = await call('POST', '/stellar/v1/contract/invoke', {
      blockchainNetwork: LOCAL,
      address: behaviour.address,
      method: 'emit',
      params: [5],
      restore: false,
      myReference: 'emit5',
    });
    expect(invoke.status).toBe(200);
    expect(invoke.body.status).toBe('PENDING');
    const info = await waitForStellar(call, invoke.body.txHash);
    expect(info).toMatchObject({ status: 'SUCCESS', kind: 'invoke', myReference: 'emit5', error: '' });
    expect(info.receipt.events).toEqual([{ contract: behaviour.address, topics: ['ping', 5], data: 5 }]);
    expect(info.recipt).toEqual(info.receipt);
    expect(info.receipt.fee_charged).toBeGreaterThan(0);
    expect(info.receipt.fee_charged).toBeLessThanOrEqual(info.transaction.max_fee);
    expect(info.transaction.source_account).toBe(own);
    expect(info.transaction.sequence_number_string).toBe(String(info.transaction.sequence_number));
    expect(new Date(info.receipt.createdAt).toISOString()).toBe(info.receipt.createdAt);
    const listed = await call('GET', '/stellar/v1/transaction/reference/emit5');
    expect(listed.body.info.map((record: { txHash: string }) => record.txHash)).toEqual([invoke.body.txHash]);
  });

  it('answers a contract error with its number and name from the spec', async () => {
    const failed = await call('POST', '/stellar/v1/contract/invoke', {
      blockchainNetwork: LOCAL,
      address: behaviour.address,
      method: 'fail',
      params: [2],
      restore: false,
    });
    expect(failed.status).toBe(400);
    expect(failed.body.code).toBe('CG_ERR_STELLAR_CONTRACT_ERROR');
    expect(failed.body.message).toContain('error #2 (AlreadyUsed)');
  });

  it('refuses an invocation that needs a signature the service cannot give, and signs its own', async () => {
    const stranger = Keypair.random().publicKey();
    const refused = await call('POST', '/stellar/v1/contract/invoke', {
      blockchainNetwork: LOCAL,
      address: behaviour.address,
      method: 'guarded',
      params: [stranger, 1],
      restore: false,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('CG_ERR_STELLAR_AUTH_REQUIRED');
    expect(refused.body.message).toContain(stranger);
    const mine = await invokeAndWait(call, behaviour.address, 'guarded', [own, 7]);
    expect(mine.receipt.result).toBe(7);
  });
});

describe('TTL', () => {
  it('reads the code and instance TTLs and extends both', async () => {
    const code = await call('GET', `/stellar/v1/contract/${behaviour.id}/contracttl`, {
      blockchainNetwork: LOCAL,
    });
    expect(code.status).toBe(200);
    expect(code.body.isAlive).toBe(true);
    expect(code.body.liveUntilLedger).toBeGreaterThan(code.body.latestLedger);
    const instance = await call('GET', `/stellar/v1/contract/${behaviour.address}/instancettl`, {
      blockchainNetwork: LOCAL,
      sourceAccount: own,
    });
    expect(instance.status).toBe(200);
    expect(instance.body.isAlive).toBe(true);
    const extend = await call('POST', '/stellar/v1/contract/invoke/extendttl', {
      blockchainNetwork: LOCAL,
      address: behaviour.address,
      extend_to: 100_000,
    });
    expect(extend.status).toBe(200);
    expect(extend.body.status).toBe('SUCCESS');
    const after = await call(
      'GET',
      `/stellar/v1/contract/${behaviour.address}/instancettl?blockchainNetwork=${LOCAL}&sourceAccount=${own}`,
    );
    expect(after.body.liveUntilLedger).toBeGreaterThanOrEqual(instance.body.latestLedger + 100_000);
    const codeAfter = await call('POST', `/stellar/v1/contract/${behaviour.id}/contracttl`, {
      network: LOCAL,
    });
    expect(codeAfter.body.liveUntilLedger).toBeGreaterThanOrEqual(instance.body.latestLedger + 100_000);
    const info = await waitForStellar(call, extend.body.txHash);
    expect(info).toMatchObject({ status: 'SUCCESS', kind: 'extend_ttl' });
    expect(info.transaction.operations[0]).toEqual({ type: 'extendFootprintTtl', extendTo: 100_000 });
  });

  it('answers 400 for what does not exist on the network', async () => {
    const neverDeployed = await savedId(service.url, service.auth, fixture('increment_events.wasm'), 'never');
    const code = await call('GET', `/stellar/v1/contract/${neverDeployed}/contracttl`, {
      blockchainNetwork: LOCAL,
    });
    expect(code.status).toBe(400);
    expect(code.body.code).toBe('CG_ERR_STELLAR_UNKNOWN_CONTRACT');
    const nobody = await call('GET', `/stellar/v1/contract/${behaviour.address}/instancettl`, {
      blockchainNetwork: LOCAL,
      sourceAccount: Keypair.random().publicKey(),
    });
    expect(nobody.status).toBe(400);
    expect(nobody.body.code).toBe('CG_ERR_STELLAR_UNKNOWN_ACCOUNT');
    const nowhere = StrKey.encodeContract(Buffer.alloc(32, 3));
    const instance = await call('GET', `/stellar/v1/contract/${nowhere}/instancettl`, {
      blockchainNetwork: LOCAL,
      sourceAccount: own,
    });
    expect(instance.status).toBe(400);
    expect(instance.body.code).toBe('CG_ERR_STELLAR_UNKNOWN_CONTRACT');
    const extend = await call('POST', '/stellar/v1/contract/invoke/extendttl', {
      blockchainNetwork: LOCAL,
      address: nowhere,
      extend_to: 10,
    });
    expect(extend.status).toBe(400);
    const tooFar = await call('POST', '/stellar/v1/contract/invoke/extendttl', {
      blockchainNetwork: LOCAL,
      address: behaviour.address,
      extend_to: 4_000_000_000,
    });
    expect(tooFar.status).toBe(400);
  });
});

describe('transaction information', () => {
  it('answers 400 for an unknown hash or network, and a malformed hash', async () => {
    const unknown = await call('GET', `/stellar/v1/transaction/${'ab'.repeat(32)}/info?network=${LOCAL}`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('CG_ERR_STELLAR_UNKNOWN_TRANSACTION');
    expect((await call('GET', `/stellar/v1/transaction/xyz/info?network=${LOCAL}`)).status).toBe(400);
    expect((await call('GET', `/stellar/v1/transaction/${'ab'.repeat(32)}/info?network=7`)).status).toBe(400);
    expect((await call('GET', `/stellar/v1/transaction/${'ab'.repeat(32)}/info`)).status).toBe(400);
  });

  it("reads another application's transaction from the network, without its record", async () => {
    const invoke = await call('POST', '/stellar/v1/contract/invoke', {
      blockchainNetwork: LOCAL,
      address: types.address,
      method: 'e_u32',
      params: [1],
      restore: false,
      myReference: 'mine',
    });
    await waitForStellar(call, invoke.body.txHash);
    const other = await otherApplication();
    const seen = await other('GET', `/stellar/v1/transaction/${invoke.body.txHash}/info?network=${LOCAL}`);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ status: 'SUCCESS', myReference: null, kind: null });
    expect(seen.body.receipt.result).toBe(1);
    expect((await other('GET', '/stellar/v1/transaction/reference/mine')).body.info).toEqual([]);
  });
});
