import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, waitForFinalStatus } from '../support/api-client.ts';
import { createDatabase } from '../support/postgres-server.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { addSender, type Call, confirmed, readThreeWays, refused } from './token-test-client.ts';

let service: TestService;
let call: Call;
let owner: string;
let second: string;
let multi: string;
let poap: string;
const alice = getAddress('0x00000000000000000000000000000000000a11ce');
const royalties = getAddress('0x00000000000000000000000000000000000f1ee5');

beforeAll(async () => {
  // On PostgreSQL (the other token tests run on PGlite): real concurrency for the claims and the holders index.
  service = await startTestService({ DATABASE_URL: await createDatabase(inject('postgresUrl')) });
  call = apiClient(service.url, service.auth);
  owner = service.credentials.sender;
  second = await addSender(service, call);
  const [deployMulti, deployPoap] = await Promise.all([
    confirmed(call, '/erc/v1/erc1155/deploy', {
      name: 'Items',
      symbol: 'ITM',
      ipfsUri: 'ipfs://items/',
      royaltyRecipient: royalties,
      royaltyValue: 5,
      alias: 'items',
      blockchainNetwork: 31337,
    }),
    confirmed(call, '/erc/v1/poap/deploy', {
      name: 'Meetup',
      amount: 5,
      ipfsUri: 'ipfs://meetup',
      alias: 'meetup',
      network: 31337,
    }),
  ]);
  multi = deployMulti.body.contractAddress;
  poap = deployPoap.body.contractAddress;
});
afterAll(async () => service?.close());

const onMulti = (extra: Record<string, unknown> = {}) => ({
  contractAddress: multi,
  network: 31337,
  ...extra,
});
const onPoap = (extra: Record<string, unknown> = {}) => ({ contractAddress: poap, network: 31337, ...extra });
const balance = async (contractAddress: string, address: string, id: number) =>
  (await call('GET', '/erc/v1/erc1155/balanceOf', { contractAddress, network: 31337, address, id })).body
    .balance;

describe('ERC-1155 table', () => {
  it('mints one id and several (with both spellings of amounts), and reads balance and uri three ways', async () => {
    await confirmed(call, '/erc/v1/erc1155/mint', onMulti({ to: owner, id: 1, amount: 100 }));
    const batch = await confirmed(
      call,
      '/erc/v1/erc1155/mintbatch',
      onMulti({ to: owner, ids: [2, 3], amount: [20, 30] }),
    );
    await confirmed(call, '/erc/v1/erc1155/mintbatch', onMulti({ to: owner, ids: ['4'], amounts: ['40'] }));
    expect(
      (await readThreeWays(call, '/erc/v1/erc1155/balanceOf', onMulti({ address: owner, id: 3 }))).body,
    ).toEqual({
      balance: 30,
      balanceString: '30',
    });
    expect(await balance(multi, owner, 4)).toBe(40);
    // The trailing slash of the base URI is not doubled.
    expect((await readThreeWays(call, '/erc/v1/erc1155/tokenUri', onMulti({ id: 2 }))).body).toEqual({
      uri: 'ipfs://items/2.json',
    });
    const royalty = await call('POST', '/core/v1/evm/transact/view', {
      contractAddress: multi,
      blockchainNetwork: 31337,
      method: 'royaltyInfo',
      params: [1, 1000],
    });
    expect(royalty.body).toEqual([royalties, 50]);
    const info = await call('GET', `/core/v1/evm/info/transaction/${batch.body.txHash}?network=31337`);
    expect(info.body.receipt.logs.map((log: { name: string }) => log.name)).toEqual(['TransferBatch']);
  });

  it('transfers one id and several from the signer', async () => {
    const single = await confirmed(
      call,
      '/erc/v1/erc1155/transfer',
      onMulti({ to: alice, id: 1, amount: 10 }),
    );
    await confirmed(
      call,
      '/erc/v1/erc1155/transferBatch',
      onMulti({ to: alice, ids: [2, 3], amounts: [5, 6] }),
    );
    expect([
      await balance(multi, alice, 1),
      await balance(multi, alice, 2),
      await balance(multi, alice, 3),
    ]).toEqual([10, 5, 6]);
    expect(await balance(multi, owner, 1)).toBe(90);
    const info = await call('GET', `/core/v1/evm/info/transaction/${single.body.txHash}?network=31337`);
    expect(info.body.receipt.logs.map((log: { name: string }) => log.name)).toEqual(['TransferSingle']);
  });

  it('refuses mismatched arrays, a transfer above the balance and a mint by a non-owner', async () => {
    for (const path of ['/erc/v1/erc1155/mintbatch', '/erc/v1/erc1155/transferBatch']) {
      await refused(
        call,
        'POST',
        path,
        onMulti({ to: alice, ids: [1, 2, 3], amounts: [1, 2] }),
        400,
        'CG_ERR_VALIDATION',
        /amounts has 2 item\(s\) but ids has 3/,
      );
    }
    await refused(
      call,
      'POST',
      '/erc/v1/erc1155/transfer',
      onMulti({ to: alice, id: 1, amount: 91 }),
      400,
      'ERROR_EXECUTION_REVERTED',
      /ERC1155InsufficientBalance/,
    );
    await refused(
      call,
      'POST',
      '/erc/v1/erc1155/mint',
      onMulti({ to: alice, id: 1, amount: 1, sender: second }),
      400,
      'ERROR_EXECUTION_REVERTED',
      /OwnableUnauthorizedAccount/,
    );
  });

  it('answers 400 on a contract of another kind', async () => {
    const erc20 = await confirmed(call, '/erc/v1/erc20/deploy', {
      name: 'Gold',
      symbol: 'GLD',
      alias: 'gold',
      initialSupply: 1,
      network: 31337,
    });
    await refused(
      call,
      'GET',
      '/erc/v1/erc1155/balanceOf',
      { contractAddress: erc20.body.contractAddress, network: 31337, address: owner, id: 1 },
      400,
      'CG_ERR_WRONG_TOKEN_STANDARD',
      /is not an ERC-1155 contract: it is an ERC-20 contract/,
    );
    await refused(
      call,
      'POST',
      '/erc/v1/erc1155/mintbatch',
      onPoap({ to: alice, ids: [1], amounts: [1] }),
      400,
      'CG_ERR_WRONG_TOKEN_STANDARD',
      /is not an ERC-1155 contract: it is a POAP contract/,
    );
    await refused(
      call,
      'POST',
      '/erc/v1/poap/transfer',
      onMulti({ to: alice, id: 1 }),
      400,
      'CG_ERR_WRONG_TOKEN_STANDARD',
      /is not a POAP contract: it is an ERC-1155 contract/,
    );
  });

  it('lists holders per id', async () => {
    const holders = await readThreeWays(call, '/erc/v1/erc1155/holders', onMulti(), ['scannedBlock']);
    expect(holders.body.holders).toEqual(
      expect.arrayContaining([
        { address: owner, id: 1, balance: 90, balanceString: '90' },
        { address: alice, id: 3, balance: 6, balanceString: '6' },
      ]),
    );
    expect(holders.body.total).toBe(7);
    const one = await call('GET', '/erc/v1/erc1155/holders', onMulti({ id: 1 }));
    expect(one.body.holders).toEqual([
      { address: owner, id: 1, balance: 90, balanceString: '90' },
      { address: alice, id: 1, balance: 10, balanceString: '10' },
    ]);
  });
});

describe('POAP table', () => {
  it('deploys with a single amount or a list, and reads balances and uris', async () => {
    expect(
      (await readThreeWays(call, '/erc/v1/poap/balanceOf', onPoap({ address: owner, id: 1 }))).body,
    ).toEqual({
      balance: 5,
      balanceString: '5',
    });
    // The spec's POAP table reads the token URI on the ERC-1155 path.
    expect((await readThreeWays(call, '/erc/v1/erc1155/tokenUri', onPoap({ id: 1 }))).body).toEqual({
      uri: 'ipfs://meetup/1.json',
    });
    expect((await call('GET', '/erc/v1/poap/tokenUri', onPoap({ id: 1 }))).body).toEqual({
      uri: 'ipfs://meetup/1.json',
    });
    const listed = await confirmed(call, '/erc/v1/poap/deploy', {
      name: 'Series',
      amount: [3, '4'],
      ipfsUri: 'ipfs://series',
      alias: 'series',
      network: 31337,
    });
    const series = listed.body.contractAddress;
    expect([await balance(series, owner, 1), await balance(series, owner, 2)]).toEqual([3, 4]);
  });

  it('moves one badge by the minter, refuses a non-minter before signing, and the contract refuses it too', async () => {
    await confirmed(call, '/erc/v1/poap/transfer', onPoap({ to: alice, id: 1 }));
    await confirmed(call, '/erc/v1/poap/transfer', onPoap({ to: second, id: 1 }));
    expect(await balance(poap, alice, 1)).toBe(1);
    expect(await balance(poap, owner, 1)).toBe(3);
    await refused(
      call,
      'POST',
      '/erc/v1/poap/transfer',
      onPoap({ to: alice, id: 1, sender: second }),
      400,
      'CG_ERR_NOT_MINTER',
      /lacks the minter role/,
    );
    const forced = await call('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: poap,
      sender: second,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [alice, 1],
      useGasEstimation: false,
      gasLimit: 200_000,
    });
    expect(forced.status).toBe(201);
    const status = await waitForFinalStatus(call, forced.body.txHash);
    expect(status.status).toBe('evmError');
    expect(status.error).toContain('TransferNotAllowed');
    expect(await balance(poap, second, 1)).toBe(1);
    // The minter moves badges through the ERC-1155 path as well.
    await confirmed(call, '/erc/v1/erc1155/transfer', onPoap({ to: alice, id: 1, amount: 2 }));
    expect(await balance(poap, alice, 1)).toBe(3);
  });

  it('lists the POAP contracts and holders', async () => {
    const contracts = await call('GET', '/erc/v1/poap/contracts');
    expect(contracts.body.contracts.map((c: { alias: string }) => c.alias)).toEqual(['series', 'meetup']);
    const holders = await call('GET', '/erc/v1/poap/holders', onPoap());
    expect(holders.body.holders).toEqual(
      [
        { address: alice, id: 1, balance: 3, balanceString: '3' },
        { address: owner, id: 1, balance: 1, balanceString: '1' },
        { address: second, id: 1, balance: 1, balanceString: '1' },
      ].sort(
        (a, b) => b.balance - a.balance || a.address.toLowerCase().localeCompare(b.address.toLowerCase()),
      ),
    );
    // An ERC-1155 path serves a POAP contract's holders too.
    expect((await call('GET', '/erc/v1/erc1155/holders', onPoap())).body.total).toBe(3);
  });
});
