import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';
import {
  addSender,
  type Call,
  confirmed,
  nobody,
  otherApplication,
  readThreeWays,
  refused,
} from './token-test-client.ts';

let service: TestService;
let call: Call;
let owner: string;
let second: string;
let token: string;
const supply = 1000n * 10n ** 18n;
const recipient = getAddress('0x00000000000000000000000000000000000a11ce');

beforeAll(async () => {
  service = await startTestService();
  call = apiClient(service.url, service.auth);
  owner = service.credentials.sender;
  second = await addSender(service, call);
  // The spec's field-table spelling of the supply, and the core API's name of the network field.
  const deploy = await confirmed(call, '/erc/v1/erc20/deploy', {
    name: 'Gold',
    symbol: 'GLD',
    alias: 'gold',
    initualSupply: 1000,
    blockchainNetwork: 31337,
  });
  expect(Object.keys(deploy.body).sort()).toEqual(['contractAddress', 'txHash']);
  token = deploy.body.contractAddress;
});
afterAll(async () => service?.close());

const at = (extra: Record<string, unknown> = {}) => ({ contractAddress: token, network: 31337, ...extra });

describe('ERC-20 table', () => {
  it('reads name, symbol, decimals and total supply three ways (POST, GET body, GET query)', async () => {
    expect((await readThreeWays(call, '/erc/v1/erc20/name', at())).body).toEqual({ name: 'Gold' });
    expect((await readThreeWays(call, '/erc/v1/erc20/symbol', at())).body).toEqual({ symbol: 'GLD' });
    expect((await readThreeWays(call, '/erc/v1/erc20/decimals', at())).body).toEqual({ decimals: 18 });
    const total = await readThreeWays(call, '/erc/v1/erc20/totalSupply', at());
    expect(total.body.totalSupplyString).toBe(supply.toString());
    // The JSON number carries every digit on the wire.
    expect(total.text).toContain(`"totalSupply":${supply}`);
    const viaContract = await call(
      'GET',
      `/erc/v1/erc20/balanceOf?contract=${token}&network=31337&address=${owner}`,
    );
    expect(viaContract.body.balanceString).toBe(supply.toString());
  });

  it('transfers, and the transaction information decodes input and log without a contractSpecsId', async () => {
    const sent = await confirmed(call, '/erc/v1/erc20/transfer', at({ recipient, amount: '2500' }));
    expect(sent.body).toEqual({
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      nonce: expect.any(Number),
    });
    const balance = await readThreeWays(call, '/erc/v1/erc20/balanceOf', at({ address: recipient }));
    expect(balance.body).toEqual({ balance: 2500, balanceString: '2500' });
    const info = await call('GET', `/core/v1/evm/info/transaction/${sent.body.txHash}?network=31337`);
    expect(info.body.transaction.inputData.function).toBe('transfer(address,uint256)');
    expect(info.body.receipt.logs.map((log: { name: string }) => log.name)).toEqual(['Transfer']);
  });

  it('raises and lowers an allowance (both spellings of subtractedValue), and reads it', async () => {
    await confirmed(call, '/erc/v1/erc20/increaseAllowance', at({ spender: second, addedValue: 150 }));
    await confirmed(call, '/erc/v1/erc20/decreaseAllowance', at({ spender: second, substractedValue: '30' }));
    await confirmed(call, '/erc/v1/erc20/decreaseAllowance', at({ spender: second, subtractedValue: 20 }));
    const allowance = await readThreeWays(call, '/erc/v1/erc20/allowance', at({ owner, spender: second }));
    expect(allowance.body).toEqual({ allowance: 100, allowanceString: '100' });
    await refused(
      call,
      'POST',
      '/erc/v1/erc20/decreaseAllowance',
      at({ spender: second, subtractedValue: 101 }),
      400,
      'ERROR_EXECUTION_REVERTED',
      /ERC20FailedDecreaseAllowance/,
    );
  });

  it('moves tokens with transferFrom within the allowance, and refuses beyond it before signing', async () => {
    const moved = await confirmed(
      call,
      '/erc/v1/erc20/transferFrom',
      at({ sender: owner, spender: second, recipient, amount: 60 }),
    );
    const info = await call('GET', `/core/v1/evm/info/transaction/${moved.body.txHash}?network=31337`);
    expect(info.body.transaction.from.toLowerCase()).toBe(second.toLowerCase());
    expect(info.body.transaction.inputData.function).toBe('transferFrom(address,address,uint256)');
    expect(
      (await call('POST', '/erc/v1/erc20/allowance', at({ owner, spender: second }))).body.allowance,
    ).toBe(40);
    await refused(
      call,
      'POST',
      '/erc/v1/erc20/transferFrom',
      at({ sender: owner, spender: second, recipient, amount: 41 }),
      400,
      'CG_ERR_INSUFFICIENT_ALLOWANCE',
      /allowance .* \(40\)/,
    );
    // The default sender has no allowance over the recipient's tokens.
    await refused(
      call,
      'POST',
      '/erc/v1/erc20/transferFrom',
      at({ sender: recipient, recipient: owner, amount: 1 }),
      400,
      'CG_ERR_INSUFFICIENT_ALLOWANCE',
    );
    // The second sender has an allowance over the owner but the owner is asked for more than it holds.
    await confirmed(
      call,
      '/erc/v1/erc20/increaseAllowance',
      at({ spender: second, addedValue: supply.toString() }),
    );
    await refused(
      call,
      'POST',
      '/erc/v1/erc20/transferFrom',
      at({ sender: owner, spender: second, recipient, amount: supply.toString() }),
      400,
      'CG_ERR_INSUFFICIENT_TOKEN_BALANCE',
    );
    // The owner moving its own tokens needs no allowance: sent as a transfer.
    const own = await confirmed(
      call,
      '/erc/v1/erc20/transferFrom',
      at({ sender: owner, recipient, amount: 1 }),
    );
    const ownInfo = await call('GET', `/core/v1/evm/info/transaction/${own.body.txHash}?network=31337`);
    expect(ownInfo.body.transaction.inputData.function).toBe('transfer(address,uint256)');
  });

  it('signs with another sender of the application when `sender` is given, and refuses a stranger with 403', async () => {
    await confirmed(call, '/erc/v1/erc20/transfer', at({ recipient: second, amount: 10 }));
    const sent = await confirmed(
      call,
      '/erc/v1/erc20/transfer',
      at({ recipient, amount: 3, sender: second }),
    );
    const info = await call('GET', `/core/v1/evm/info/transaction/${sent.body.txHash}?network=31337`);
    expect(info.body.transaction.from.toLowerCase()).toBe(second.toLowerCase());
    await refused(
      call,
      'POST',
      '/erc/v1/erc20/transfer',
      at({ recipient, amount: 1, sender: nobody }),
      403,
      'CG_ERR_UNKNOWN_SENDER',
    );
  });

  it('refuses a transfer above the balance with the decoded reason, and records nothing signed', async () => {
    await refused(
      call,
      'POST',
      '/erc/v1/erc20/transfer',
      at({ recipient, amount: (supply * 2n).toString(), myReference: 'tooMuch' }),
      400,
      'ERROR_EXECUTION_REVERTED',
      /ERC20InsufficientBalance/,
    );
    const records = await call('GET', '/core/v1/evm/info/transaction/reference/tooMuch');
    expect(records.body.info).toEqual([expect.objectContaining({ status: 'error', txHash: null })]);
  });

  it('answers 400, never 500, when the token contract fails in the EVM without reverting (out of gas)', async () => {
    // Another application's token: this one's contract list is counted below.
    const other = apiClient(service.url, await otherApplication(service));
    const deploy = await confirmed(other, '/erc/v1/erc20/deploy', {
      name: 'Loop',
      symbol: 'LOOP',
      alias: 'loop',
      initialSupply: 1,
      network: 31337,
    });
    const looping = deploy.body.contractAddress as string;
    // The code becomes a loop that runs until the call's gas is gone.
    await fetch(service.credentials.devnetRpcUrl as string, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'anvil_setCode',
        params: [looping, '0x5b600056'],
      }),
    });
    const balance = await other('POST', '/erc/v1/erc20/balanceOf', {
      contractAddress: looping,
      network: 31337,
      address: owner,
    });
    expect(balance.status, balance.text).toBe(400);
    expect(balance.body.code).toBe('ERROR_EXECUTION_REVERTED');
    expect(balance.body.message).toBe('balanceOf reverted');
  });

  it('answers 400 on a contract of another kind and on an address with no code', async () => {
    const nft = await confirmed(call, '/erc/v1/erc721/deploy', {
      name: 'Art',
      symbol: 'ART',
      network: 31337,
    });
    for (const path of ['/erc/v1/erc20/balanceOf', '/erc/v1/erc20/transfer']) {
      await refused(
        call,
        'POST',
        path,
        { contractAddress: nft.body.contractAddress, network: 31337, address: owner, recipient, amount: 1 },
        400,
        'CG_ERR_WRONG_TOKEN_STANDARD',
        /is not an ERC-20 contract: it is an ERC-721 contract/,
      );
      await refused(
        call,
        'POST',
        path,
        { contractAddress: nobody, network: 31337, address: owner, recipient, amount: 1 },
        400,
        'CG_ERR_NOT_A_CONTRACT',
      );
    }
  });

  it('serves an ERC-20 deployed through the core API with the shared spec', async () => {
    const specs = await call('GET', '/core/v1/evm/info/specs');
    const erc20 = specs.body.find((spec: { name: string }) => spec.name === 'ERC20').id;
    const core = await confirmed(call, '/core/v1/evm/contract/deploy', {
      contractSpecsId: erc20,
      sender: owner,
      blockchainNetwork: 31337,
      params: ['Silver', 'SLV', 5],
    });
    const answer = await call('GET', '/erc/v1/erc20/totalSupply', {
      contract: core.body.contractAddress,
      network: 31337,
    });
    expect(answer.body.totalSupplyString).toBe((5n * 10n ** 18n).toString());
  });
});

describe('beyond the spec: contracts and holders', () => {
  it('lists the application’s ERC-20 contracts with alias, network, standard and deploy status', async () => {
    await confirmed(call, '/erc/v1/erc20/deploy', {
      name: 'Copper',
      symbol: 'CU',
      alias: 'copper',
      initialSupply: '7',
      network: 31337,
    });
    const listed = await readThreeWays(call, '/erc/v1/erc20/contracts', { network: 31337 });
    expect(listed.body.contracts.slice(0, 2)).toEqual([
      expect.objectContaining({
        alias: 'copper',
        network: 31337,
        standard: 'ERC20',
        deployStatus: 'confirmed',
      }),
      expect.objectContaining({ alias: null, standard: 'ERC20' }),
    ]);
    expect(listed.body.contracts).toContainEqual(
      expect.objectContaining({ alias: 'gold', contractAddress: token, deployStatus: 'confirmed' }),
    );
    expect(listed.body.total).toBe(3);
    const paged = await call('GET', '/erc/v1/erc20/contracts?page=2&pageSize=2');
    expect(paged.body).toMatchObject({ page: 2, pageSize: 2, total: 3 });
    expect(paged.body.contracts).toHaveLength(1);
    const nfts = await call('GET', '/erc/v1/erc721/contracts');
    expect(nfts.body.contracts.map((c: { standard: string }) => c.standard)).toEqual(['ERC721']);
  });

  it('pages holders built from Transfer logs, and keeps them up to date on later reads', async () => {
    const first = await readThreeWays(call, '/erc/v1/erc20/holders', at(), ['scannedBlock']);
    expect(first.body.upToDate).toBe(true);
    const holders = first.body.holders as Array<{ address: string; balanceString: string }>;
    const sum = holders.reduce((total, holder) => total + BigInt(holder.balanceString), 0n);
    expect(sum).toBe(supply);
    for (const holder of holders) {
      const balance = await call('POST', '/erc/v1/erc20/balanceOf', at({ address: holder.address }));
      expect(balance.body.balanceString).toBe(holder.balanceString);
    }
    expect(holders[0]?.address).toBe(owner);
    const newcomer = getAddress('0x0000000000000000000000000000000000c0ffee');
    await confirmed(call, '/erc/v1/erc20/transfer', at({ recipient: newcomer, amount: 77 }));
    const later = await call('GET', '/erc/v1/erc20/holders', at());
    expect(later.body.scannedBlock).toBeGreaterThan(first.body.scannedBlock);
    expect(later.body.holders).toContainEqual({ address: newcomer, balance: 77, balanceString: '77' });
    const page = await call(
      'GET',
      `/erc/v1/erc20/holders?contractAddress=${token}&network=31337&page=2&pageSize=1`,
    );
    expect(page.body.holders).toHaveLength(1);
    expect(page.body.holders[0]).toEqual(later.body.holders[1]);
  });

  it('reads the logs of many blocks in bounded ranges and stays exact', async () => {
    const before = await call('GET', '/erc/v1/erc20/holders', at());
    // 4,500 empty blocks, then a transfer: the next read scans them in several eth_getLogs ranges.
    const mined = await fetch(service.credentials.devnetRpcUrl as string, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: ['0x1194'] }),
    });
    expect(mined.status).toBe(200);
    await confirmed(call, '/erc/v1/erc20/transfer', at({ recipient, amount: 5 }));
    const after = await call('GET', '/erc/v1/erc20/holders', at());
    expect(after.body.upToDate).toBe(true);
    expect(after.body.scannedBlock).toBeGreaterThan(before.body.scannedBlock + 4_500);
    const balanceOf = (body: { holders: Array<{ address: string; balance: number }> }) =>
      body.holders.find((holder) => holder.address === recipient)?.balance ?? 0;
    expect(balanceOf(after.body)).toBe(balanceOf(before.body) + 5);
  });

  it('answers 404 for the holders of a contract another application deployed', async () => {
    const other = apiClient(service.url, await otherApplication(service));
    await refused(other, 'GET', '/erc/v1/erc20/holders', at(), 404, 'CG_ERR_NOT_FOUND');
    expect((await other('GET', '/erc/v1/erc20/contracts')).body).toMatchObject({ total: 0, contracts: [] });
    await refused(call, 'GET', '/erc/v1/erc721/holders', at(), 400, 'CG_ERR_WRONG_TOKEN_STANDARD');
  });
});
