import { readFileSync } from 'node:fs';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, waitForFinalStatus } from '../support/api-client.ts';
import { createDatabase } from '../support/postgres-server.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { addSender, type Call, confirmed, nobody, readThreeWays, refused } from './token-test-client.ts';

let service: TestService;
let call: Call;
let owner: string;
let second: string;
let nft: string;
const alice = getAddress('0x00000000000000000000000000000000000a11ce');
const collector = getAddress('0x0000000000000000000000000000000000c011ec');

beforeAll(async () => {
  // On PostgreSQL (the other token tests run on PGlite): real concurrency for the claims and the holders index.
  service = await startTestService({ DATABASE_URL: await createDatabase(inject('postgresUrl')) });
  call = apiClient(service.url, service.auth);
  owner = service.credentials.sender;
  second = await addSender(service, call);
  const deploy = await confirmed(call, '/erc/v1/erc721/deploy', {
    name: 'Art',
    symbol: 'ART',
    alias: 'art',
    network: 31337,
  });
  nft = deploy.body.contractAddress;
});
afterAll(async () => service?.close());

const at = (extra: Record<string, unknown> = {}) => ({ contractAddress: nft, network: 31337, ...extra });
const mint = (tokenId: number | string, ipfsHash: string, extra: Record<string, unknown> = {}) =>
  at({
    recipientAddress: collector,
    tokenId,
    ipfsUri: `ipfs://${ipfsHash}/meta.json`,
    ipfsHash,
    ...extra,
  });

describe('ERC-721 table', () => {
  it('mints with a royalty for the recipient and reads uri, owner and balance three ways', async () => {
    const minted = await confirmed(call, '/erc/v1/erc721/mint', mint(1, 'QmFirst', { royaltyPercentage: 7 }));
    const royalty = await call('POST', '/core/v1/evm/transact/view', {
      contractAddress: nft,
      blockchainNetwork: 31337,
      method: 'royaltyInfo',
      params: [1, 10_000],
    });
    expect(royalty.body).toEqual([collector, 700]);
    expect((await readThreeWays(call, '/erc/v1/erc721/tokenUri', at({ id: 1 }))).body).toEqual({
      uri: 'ipfs://QmFirst/meta.json',
    });
    expect((await readThreeWays(call, '/erc/v1/erc721/ownerOf', at({ id: '1' }))).body).toEqual({
      owner: collector,
    });
    expect((await readThreeWays(call, '/erc/v1/erc721/balanceOf', at({ address: collector }))).body).toEqual({
      balance: 1,
      balanceString: '1',
    });
    const info = await call('GET', `/core/v1/evm/info/transaction/${minted.body.txHash}?network=31337`);
    expect(info.body.transaction.inputData.function).toBe('mint(address,uint256,string,string,uint96)');
    expect(info.body.receipt.logs.map((log: { name: string }) => log.name)).toContain('Transfer');
  });

  it('refuses a repeated ipfsHash before signing, also while the first mint is pending', async () => {
    await refused(
      call,
      'POST',
      '/erc/v1/erc721/mint',
      mint(2, 'QmFirst'),
      400,
      'CG_ERR_DUPLICATE_IPFS_HASH',
      /ipfsHash 'QmFirst' is already minted/,
    );
    const racing = await Promise.all([
      call('POST', '/erc/v1/erc721/mint', mint(3, 'QmRace')),
      call('POST', '/erc/v1/erc721/mint', mint(4, 'QmRace')),
    ]);
    expect(racing.map((answer) => answer.status).sort()).toEqual([201, 400]);
    const won = racing.find((answer) => answer.status === 201);
    expect((await waitForFinalStatus(call, won?.body.txHash)).status).toBe('confirmed');
    expect(racing.find((answer) => answer.status === 400)?.body.code).toBe('CG_ERR_DUPLICATE_IPFS_HASH');
  });

  it('lets the contract refuse a repeated ipfsHash too, and maps that refusal to the same code', async () => {
    const forced = await call('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: nft,
      sender: owner,
      blockchainNetwork: 31337,
      method: 'mint',
      params: [alice, 50, 'ipfs://x', 'QmFirst', 0],
      useGasEstimation: false,
      gasLimit: 500_000,
    });
    expect(forced.status).toBe(201);
    const status = await waitForFinalStatus(call, forced.body.txHash);
    expect(status.status).toBe('evmError');
    expect(status.error).toContain('DuplicateIpfsHash');
    // Minted outside the token API: no claim here, the contract's refusal answers.
    await confirmed(call, '/core/v1/evm/transact/mutable', {
      contractAddress: nft,
      sender: owner,
      blockchainNetwork: 31337,
      method: 'mint',
      params: [alice, 51, 'ipfs://y', 'QmOutside', 0],
    });
    await refused(
      call,
      'POST',
      '/erc/v1/erc721/mint',
      mint(52, 'QmOutside'),
      400,
      'CG_ERR_DUPLICATE_IPFS_HASH',
    );
  });

  it('refuses a token id already minted, and answers 400 for ids that do not exist', async () => {
    await refused(
      call,
      'POST',
      '/erc/v1/erc721/mint',
      mint(1, 'QmOther'),
      400,
      'CG_ERR_TOKEN_EXISTS',
      /tokenId 1/,
    );
    for (const path of ['/erc/v1/erc721/ownerOf', '/erc/v1/erc721/tokenUri']) {
      await refused(call, 'GET', path, at({ id: 999 }), 400, 'CG_ERR_NONEXISTENT_TOKEN', /id: no token 999/);
    }
    await refused(
      call,
      'POST',
      '/erc/v1/erc721/transfer',
      at({ id: 999, from: owner, to: alice }),
      400,
      'CG_ERR_NONEXISTENT_TOKEN',
    );
  });

  it('transfers an NFT its owner holds, and refuses one not owned or not approved before signing', async () => {
    await confirmed(call, '/erc/v1/erc721/mint', mint(5, 'QmFive', { recipientAddress: owner }));
    await confirmed(call, '/erc/v1/erc721/transfer', at({ id: 5, from: owner, to: alice }));
    expect((await call('GET', '/erc/v1/erc721/ownerOf', at({ id: 5 }))).body).toEqual({ owner: alice });
    await refused(
      call,
      'POST',
      '/erc/v1/erc721/transfer',
      at({ id: 5, from: owner, to: collector }),
      400,
      'CG_ERR_NOT_TOKEN_OWNER',
      /does not own token 5/,
    );
    await refused(
      call,
      'POST',
      '/erc/v1/erc721/transfer',
      at({ id: 5, from: alice, to: collector }),
      400,
      'CG_ERR_NOT_TOKEN_OWNER',
      /neither from .* nor approved/,
    );
  });

  it('moves an NFT for an owner that approved the signer', async () => {
    await confirmed(call, '/erc/v1/erc721/mint', mint(6, 'QmSix', { recipientAddress: second }));
    await confirmed(call, '/core/v1/evm/transact/mutable', {
      contractAddress: nft,
      sender: second,
      blockchainNetwork: 31337,
      method: 'approve',
      params: [owner, 6],
    });
    await confirmed(call, '/erc/v1/erc721/transfer', at({ id: 6, from: second, to: alice }));
    expect((await call('GET', '/erc/v1/erc721/balanceOf', at({ address: alice }))).body.balance).toBe(3);
    // The owner signing itself, selected with `sender`.
    await confirmed(call, '/erc/v1/erc721/mint', mint(7, 'QmSeven', { recipientAddress: second }));
    await confirmed(call, '/erc/v1/erc721/transfer', at({ id: 7, from: second, to: alice, sender: second }));
  });

  it('answers 400 on a contract of another kind, and finds the kind of a contract deployed with an own spec', async () => {
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
      '/erc/v1/erc721/ownerOf',
      { contract: erc20.body.contractAddress, network: 31337, id: 1 },
      400,
      'CG_ERR_WRONG_TOKEN_STANDARD',
      /is not an ERC-721 contract: it is an ERC-20 contract/,
    );
    const artifact = JSON.parse(readFileSync('contracts/artifacts/ERC721.json', 'utf8'));
    const spec = await call('POST', '/core/v1/evm/info/specs', {
      name: 'my nft',
      abi: artifact.abi,
      bytecode: artifact.bytecode,
    });
    expect(spec.status).toBe(201);
    const own = await confirmed(call, '/core/v1/evm/contract/deploy', {
      contractSpecsId: spec.body.id,
      sender: owner,
      blockchainNetwork: 31337,
      params: ['Own', 'OWN'],
    });
    const address = own.body.contractAddress;
    await confirmed(call, '/erc/v1/erc721/mint', { ...mint(1, 'QmOwn'), contractAddress: address });
    expect(
      (await call('GET', '/erc/v1/erc721/ownerOf', { contractAddress: address, network: 31337, id: 1 })).body,
    ).toEqual({
      owner: collector,
    });
    await refused(
      call,
      'GET',
      '/erc/v1/erc20/name',
      { contractAddress: address, network: 31337 },
      400,
      'CG_ERR_WRONG_TOKEN_STANDARD',
      /it is an ERC-721 contract/,
    );
    await refused(
      call,
      'GET',
      '/erc/v1/erc721/ownerOf',
      at({ contractAddress: nobody, id: 1 }),
      400,
      'CG_ERR_NOT_A_CONTRACT',
    );
  });

  it('takes a mint sent right after the deploy, before the contract is mined', async () => {
    const deploy = await call('POST', '/erc/v1/erc721/deploy', {
      name: 'Fast',
      symbol: 'FST',
      network: 31337,
    });
    expect(deploy.status).toBe(201);
    const minted = await call('POST', '/erc/v1/erc721/mint', {
      ...mint(1, 'QmFast'),
      contractAddress: deploy.body.contractAddress,
    });
    expect(minted.status).toBe(201);
    expect((await waitForFinalStatus(call, deploy.body.txHash)).status).toBe('confirmed');
    expect((await waitForFinalStatus(call, minted.body.txHash)).status).toBe('confirmed');
  });
});

describe('ERC-721 holders', () => {
  it('counts the NFTs of each holder', async () => {
    const holders = await call('GET', `/erc/v1/erc721/holders?contractAddress=${nft}&network=31337`);
    expect(holders.status).toBe(200);
    expect(holders.body.holders).toEqual(
      expect.arrayContaining([
        { address: alice, balance: 4, balanceString: '4' },
        { address: collector, balance: 2, balanceString: '2' },
      ]),
    );
    for (const holder of holders.body.holders) {
      const balance = await call('GET', '/erc/v1/erc721/balanceOf', at({ address: holder.address }));
      expect(balance.body.balance).toBe(holder.balance);
    }
  });
});
