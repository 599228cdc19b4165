import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, waitForFinalStatus } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';

let service: TestService;
let call: ReturnType<typeof apiClient>;
let specs: Record<string, number>;
let token: string;

beforeAll(async () => {
  service = await startTestService();
  call = apiClient(service.url, service.auth);
  const list = await call('GET', '/core/v1/evm/info/specs');
  specs = Object.fromEntries(list.body.map((s: { name: string; id: number }) => [s.name, s.id]));
  const deploy = await call('POST', '/core/v1/evm/contract/deploy', {
    contractSpecsId: specs.ERC20,
    sender: service.credentials.sender,
    blockchainNetwork: 31337,
    params: ['Gold', 'GLD', 1000],
    myReference: 'deployGold',
  });
  expect(deploy.status).toBe(201);
  token = deploy.body.contractAddress;
  const status = await waitForFinalStatus(call, deploy.body.txHash);
  expect(status.status).toBe('confirmed');
});
afterAll(async () => service?.close());

const recipient = '0x000000000000000000000000000000000000dEaD';

describe('deploy, send and view', () => {
  it('views the deployed token, with 10^21 returned as a number literal with all its digits', async () => {
    const supply = await call('POST', '/core/v1/evm/transact/view', {
      contractAddress: token,
      blockchainNetwork: 31337,
      method: 'totalSupply',
      params: [],
    });
    expect(supply.status).toBe(200);
    expect(supply.text).toBe('[1000000000000000000000]');
    const name = await call('POST', '/core/v1/evm/transact/view', {
      contractAddress: token,
      blockchainNetwork: 31337,
      method: 'name',
      params: [],
    });
    expect(name.body).toEqual(['Gold']);
  });

  it('reads a view three ways: POST body, GET body, GET query string (with network/contract synonyms)', async () => {
    const body = { contractAddress: token, blockchainNetwork: 31337, method: 'decimals', params: [] };
    expect((await call('POST', '/core/v1/evm/transact/view', body)).body).toEqual([18]);
    expect((await call('GET', '/core/v1/evm/transact/view', body)).body).toEqual([18]);
    const query = `contract=${token}&network=31337&method=balanceOf&params=${encodeURIComponent(JSON.stringify([recipient]))}`;
    const viaQuery = await call('GET', `/core/v1/evm/transact/view?${query}`);
    expect(viaQuery.status).toBe(200);
    expect(viaQuery.body).toEqual([0]);
  });

  it('sends a transfer that confirms and moves the tokens', async () => {
    const sent = await call('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: token,
      sender: service.credentials.sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [recipient.toLowerCase(), '2500'],
      myReference: 'pay1',
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      nonce: expect.any(Number),
    });
    const status = await waitForFinalStatus(call, sent.body.txHash);
    expect(status).toMatchObject({
      status: 'confirmed',
      error: null,
      blockchainNetwork: 31337,
      myReference: 'pay1',
    });
    expect(status.confirmationTimestamp).toBeGreaterThanOrEqual(status.creationTimestamp);
    const balance = await call('POST', '/core/v1/evm/transact/view', {
      contractAddress: token,
      blockchainNetwork: 31337,
      method: 'balanceOf',
      params: [recipient],
    });
    expect(balance.body).toEqual([2500]);

    const byReference = await call('GET', '/core/v1/evm/info/transaction/reference/pay1');
    expect(byReference.body.reference).toBe('pay1');
    expect(byReference.body.info.map((r: { txHash: string }) => r.txHash)).toEqual([sent.body.txHash]);
    const unknown = await call('GET', '/core/v1/evm/info/transaction/reference/nothingHere');
    expect(unknown).toMatchObject({ status: 200, body: { reference: 'nothingHere', info: [] } });
  });

  it('decodes input data and logs in the transaction information', async () => {
    const sent = await call('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: token,
      sender: service.credentials.sender,
      blockchainNetwork: 31337,
      method: 'transfer(address,uint256)',
      params: [recipient, 7],
    });
    await waitForFinalStatus(call, sent.body.txHash);
    const info = await call('GET', `/core/v1/evm/info/transaction/${sent.body.txHash}?network=31337`);
    expect(info.status).toBe(200);
    expect(info.body.transaction).toMatchObject({
      hash: sent.body.txHash,
      nonce: sent.body.nonce,
      pending: false,
      inputData: { function: 'transfer(address,uint256)', functionId: '0xa9059cbb' },
    });
    expect(info.body.transaction.inputData.inputs.map((i: { name: string }) => i.name)).toEqual([
      'to',
      'value',
    ]);
    expect(info.body.receipt.status).toBe(1);
    expect(info.body.receipt.logs[0].name).toBe('Transfer');
    expect(info.body.receipt.blockTime).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(info.body.error).toBe(false);
    // A hash the node says it does not have is a 404 (one it did not answer about is a 503).
    const unknown = await call('GET', `/core/v1/evm/info/transaction/0x${'cd'.repeat(32)}?network=31337`);
    expect(unknown.status, unknown.text).toBe(404);
    expect(unknown.body.code).toBe('CG_ERR_UNKNOWN_TRANSACTION');
  });

  it('records an on-chain revert as evmError with the decoded reason', async () => {
    const sent = await call('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: token,
      sender: service.credentials.sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [recipient, '999999999999999999999999999'],
      useGasEstimation: false,
      gasLimit: 100000,
    });
    expect(sent.status).toBe(201);
    const status = await waitForFinalStatus(call, sent.body.txHash);
    expect(status.status).toBe('evmError');
    expect(status.error).toContain('ERC20InsufficientBalance');
  });

  it('answers 400 with the decoded reason when estimation says the call reverts, and records the error', async () => {
    const sent = await call('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: token,
      sender: service.credentials.sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [recipient, '999999999999999999999999999'],
      myReference: 'willFail',
    });
    expect(sent.status).toBe(400);
    expect(sent.body.message).toContain('ERC20InsufficientBalance');
    const records = await call('GET', '/core/v1/evm/info/transaction/reference/willFail');
    expect(records.body.info).toEqual([expect.objectContaining({ status: 'error', txHash: null })]);
  });

  it('answers 400 when a view fails in the EVM without reverting (out of gas, invalid opcode), never 500', async () => {
    // Code that loops until the gas runs out, and code that is the INVALID opcode (an old assert).
    const failing = {
      '0x00000000000000000000000000000000000f100b': '0x5b600056',
      '0x00000000000000000000000000000000000f100c': '0xfe',
    };
    for (const [address, code] of Object.entries(failing)) {
      await fetch(service.credentials.devnetRpcUrl as string, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setCode', params: [address, code] }),
      });
      const view = await call('POST', '/core/v1/evm/transact/view', {
        contractAddress: address,
        contractSpecsId: specs.ERC20,
        blockchainNetwork: 31337,
        method: 'balanceOf',
        params: [recipient],
      });
      expect(view.status, view.text).toBe(400);
      expect(view.body.code).toBe('ERROR_EXECUTION_REVERTED');
      expect(view.body.message).toMatch(/^execution failed: .*(OutOfGas|InvalidFEOpcode)/);
    }
  });

  it('answers 400 when gasLimit is below the estimate', async () => {
    const sent = await call('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: token,
      sender: service.credentials.sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [recipient, 1],
      gasLimit: 21000,
    });
    expect(sent.status).toBe(400);
    expect(sent.body.message).toMatch(/below the chain's estimate/);
  });
});

describe('bad input', () => {
  const base = () => ({
    contractAddress: token,
    sender: service.credentials.sender,
    blockchainNetwork: 31337,
    method: 'transfer',
    params: [recipient, 1],
  });
  const cases: Array<[string, () => Record<string, unknown>, RegExp]> = [
    ['a param of the wrong type', () => ({ ...base(), params: [recipient, 'lots'] }), /params\[1\]/],
    ['a wrong param count', () => ({ ...base(), params: [recipient] }), /takes 2/],
    ['an unknown method', () => ({ ...base(), method: 'steal' }), /steal/],
    ['an unknown network', () => ({ ...base(), blockchainNetwork: 5 }), /unknown network 5/],
    [
      'a sender the application does not hold',
      () => ({ ...base(), sender: recipient }),
      /not an account of this application/,
    ],
    ['a bad myReference', () => ({ ...base(), myReference: 'has spaces' }), /myReference/],
    [
      'a missing method',
      () => {
        const b: Record<string, unknown> = base();
        delete b.method;
        return b;
      },
      /'method'/,
    ],
    ['a contract with no known ABI', () => ({ ...base(), contractAddress: recipient }), /contractSpecsId/],
  ];
  it.each(cases)('answers 4xx naming the problem for %s', async (_name, body, message) => {
    const answer = await call('POST', '/core/v1/evm/transact/mutable', body());
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body.message).toMatch(message);
  });
});

describe('chain reads and estimates', () => {
  it('answers gas price, balance, is-contract and the three estimates', async () => {
    const gas = await call('GET', '/core/v1/evm/network/gasprice?network=31337');
    expect(gas.body.gasPriceGwei).toBeGreaterThan(0);
    expect(BigInt(gas.body.gasPriceWei)).toBeGreaterThan(0n);
    const balance = await call(
      'GET',
      `/core/v1/evm/chain/${service.credentials.sender}/balance?network=31337`,
    );
    expect(balance.body.balance).toBeGreaterThan(0);
    expect(BigInt(balance.body.balanceWei)).toBeGreaterThan(0n);
    expect((await call('GET', `/core/v1/evm/info/address/${token}/iscontract?network=31337`)).body).toEqual({
      isContract: true,
    });
    expect(
      (await call('GET', `/core/v1/evm/info/address/${recipient}/iscontract?network=31337`)).body,
    ).toEqual({ isContract: false });
    const deployEstimate = await call('POST', '/core/v1/evm/contract/deploy/estimategas', {
      contractSpecsId: specs.ERC20,
      sender: recipient,
      blockchainNetwork: 31337,
      params: ['A', 'B', 1],
    });
    expect(deployEstimate.body.estimatedGas).toBeGreaterThan(100000);
    const callEstimate = await call('GET', '/core/v1/evm/transact/mutable/estimategas', {
      contractAddress: token,
      sender: service.credentials.sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [recipient, 1],
    });
    expect(callEstimate.body.estimatedGas).toBeGreaterThan(21000);
    const transfer = await call('POST', '/core/v1/evm/chain/transfer/estimategas', {
      sender: service.credentials.sender,
      recipient,
      blockchainNetwork: 31337,
      value: '1000',
    });
    expect(transfer.body).toEqual({ estimatedGas: 21000 });
    const poor = await call('POST', '/core/v1/evm/chain/transfer/estimategas', {
      sender: '0x1111111111111111111111111111111111111111',
      recipient,
      blockchainNetwork: 31337,
      value: '1000000000000000000',
    });
    expect(poor.status).toBe(400);
    expect(poor.body.code).toBe('ERROR_INSUFICIENT_FUNDS');
  });
});
