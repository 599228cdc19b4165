import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, deployErc20, transferToken, waitForFinalStatus } from '../support/api-client.ts';
import { createDatabase } from '../support/postgres-server.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { addSender } from '../tokens/token-test-client.ts';

// A client that lost an answer (a timeout, a 503 that says the send may have been saved) can only be
// sure of paying once if it can ask again and get the first transaction back. `Idempotency-Key` makes
// that so: the store holds each application's keys unique, and a repetition is answered from the store.
const recipient = '0x000000000000000000000000000000000000dEaD';

/** An ERC-721 contract deployed with the client `call`, mined; and a keyed mint of `ipfsHash` on it. */
async function keyedNftContract(call: ReturnType<typeof apiClient>, name: string, ipfsHash: string) {
  const deployed = await call('POST', '/erc/v1/erc721/deploy', { name, symbol: 'KART', network: 31337 });
  expect(deployed.status, deployed.text).toBe(201);
  expect((await waitForFinalStatus(call, deployed.body.txHash)).status).toBe('confirmed');
  return (key: string, tokenId: number) =>
    call(
      'POST',
      '/erc/v1/erc721/mint',
      {
        contractAddress: deployed.body.contractAddress,
        network: 31337,
        recipientAddress: recipient,
        tokenId,
        ipfsUri: `ipfs://${ipfsHash}/meta.json`,
        ipfsHash,
      },
      { 'idempotency-key': key },
    );
}

describe.each([
  { store: 'embedded PGlite', env: async () => ({}) },
  { store: 'PostgreSQL', env: async () => ({ DATABASE_URL: await createDatabase(inject('postgresUrl')) }) },
])('Idempotency-Key on $store', ({ env }) => {
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  let sender: string;
  let token: string;

  beforeAll(async () => {
    service = await startTestService({ CHAINGATE_SOROBAN: '0', ...(await env()) });
    call = apiClient(service.url, service.auth);
    sender = service.credentials.sender;
    token = await deployErc20(call, sender, ['Keyed', 'KEY', 1000]);
  });
  afterAll(() => service?.close());

  /** The client, sending `key` in `header` on every request. */
  const keyed =
    (key: string | undefined, header = 'idempotency-key'): typeof call =>
    (method, path, body, headers = {}) =>
      call(method, path, body, key === undefined ? headers : { ...headers, [header]: key });
  const transfer = (key: string | undefined, extra: Record<string, unknown> = {}, header?: string) =>
    transferToken(keyed(key, header), { token, sender, recipient }, extra);
  const records = async (reference: string) =>
    (await call('GET', `/core/v1/evm/info/transaction/reference/${reference}`)).body.info as Array<{
      txHash: string;
    }>;

  it('answers a repeated request with the first transaction and sends nothing more', async () => {
    const first = await transfer('order-1', { myReference: 'keyedOnce' });
    expect(first.status, first.text).toBe(201);
    const again = await transfer('order-1', { myReference: 'keyedOnce' });
    expect(again.status, again.text).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await waitForFinalStatus(call, first.body.txHash)).status).toBe('confirmed');
    // After it is mined too, and with the other header name.
    const late = await transfer('order-1', { myReference: 'keyedOnce' }, 'x-idempotency-key');
    expect(late.body).toEqual(first.body);
    expect(await records('keyedOnce')).toEqual([expect.objectContaining({ txHash: first.body.txHash })]);
    const next = await transfer(undefined);
    expect(next.body.nonce).toBe(first.body.nonce + 1);
  });

  it('stores one transaction for requests with one key sent at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => transfer('order-burst', { myReference: 'keyedBurst' })),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);
    expect(new Set(answers.map((answer) => answer.body.txHash)).size).toBe(1);
    expect(await records('keyedBurst')).toHaveLength(1);
    const next = await transfer(undefined);
    expect(next.body.nonce).toBe((answers[0]?.body.nonce as number) + 1);
  });

  it('keeps one key to one of two senders sending at once, and the other sender’s sends unharmed', async () => {
    const second = await addSender(service, call);
    const funded = await transfer(undefined, { params: [second, 100] });
    expect((await waitForFinalStatus(call, funded.body.txHash)).status).toBe('confirmed');
    const fromSecond = (key: string | undefined) =>
      transferToken(keyed(key), { token, sender: second, recipient }, { myReference: 'twoSenders' });
    // The two keyed ones are different requests (their senders differ): one is sent, the other refused.
    const [mine, theirs, ...unkeyed] = await Promise.all([
      transfer('order-two', { myReference: 'twoSenders' }),
      fromSecond('order-two'),
      ...Array.from({ length: 4 }, () => fromSecond(undefined)),
    ]);
    expect([mine?.status, theirs?.status].sort()).toEqual([201, 409]);
    for (const answer of unkeyed) expect(answer.status, answer.text).toBe(201);
    expect(await records('twoSenders')).toHaveLength(5);
    const nonces = unkeyed.map((answer) => answer.body.nonce as number);
    if (theirs?.status === 201) nonces.push(theirs.body.nonce);
    nonces.sort((x, y) => x - y);
    // No nonce of the second sender lost to the rolled-back group: they follow on without a gap.
    const next = await fromSecond(undefined);
    expect(nonces.concat(next.body.nonce)).toEqual(
      Array.from({ length: nonces.length + 1 }, (_, index) => (nonces[0] as number) + index),
    );
  });

  it('refuses the key with a different request, and sends nothing', async () => {
    const first = await transfer('order-2');
    expect(first.status).toBe(201);
    const other = await transfer('order-2', { params: [recipient, 2] });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'CG_ERR_IDEMPOTENCY_KEY_REUSED' });
    expect(other.body.message).toContain(first.body.txHash);
    const elsewhere = await call(
      'POST',
      '/core/v1/evm/chain/transfer',
      { sender, recipient, blockchainNetwork: 31337, value: 1 },
      { 'idempotency-key': 'order-2' },
    );
    expect(elsewhere.status).toBe(409);
    expect((await transfer(undefined)).body.nonce).toBe(first.body.nonce + 1);
  });

  it('releases the key of a send that ended with nothing sent', async () => {
    // More gas than the sender can pay: the node refuses it, its nonce goes back, nothing went out.
    const unaffordable = { useGasEstimation: false, gasLimit: 3_000_000, gasPrice: 10_000_000 };
    const refused = await transfer('order-3', unaffordable);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.code).toBe('ERROR_INSUFICIENT_FUNDS');
    // Not answered from the store: the request runs again, and the node refuses it again.
    const again = await transfer('order-3', unaffordable);
    expect(again.status, again.text).toBe(400);
    expect(again.body.code).toBe('ERROR_INSUFICIENT_FUNDS');
    const affordable = await transfer('order-3');
    expect(affordable.status, affordable.text).toBe(201);
    expect((await transfer('order-3')).body).toEqual(affordable.body);
  });

  it('keeps each application’s keys to itself', async () => {
    const admin = apiClient(service.url, { authorization: `Bearer ${service.credentials.adminToken}` });
    const created = (await admin('POST', '/admin/v1/applications', { name: 'other', plan: 'premium' })).body;
    const other = apiClient(service.url, {
      authorization: `Bearer ${created.apiKey}`,
      'x-application-svc': created.applicationId,
    });
    const body = { sender: created.sender, recipient, blockchainNetwork: 31337, value: 1 };
    const mine = await transfer('order-shared');
    const theirs = await other('POST', '/core/v1/evm/chain/transfer', body, {
      'idempotency-key': 'order-shared',
    });
    expect(theirs.status, theirs.text).toBe(201);
    expect(theirs.body.txHash).not.toBe(mine.body.txHash);
    expect((await waitForFinalStatus(other, theirs.body.txHash)).status).toBe('confirmed');
    // Neither sees the other's transaction.
    const lookup = `/core/v1/evm/info/transaction/${theirs.body.txHash}/status?network=31337`;
    expect((await call('GET', lookup)).status).toBe(404);
  });

  it('answers a repeated deploy with its contract address', async () => {
    const deploy = () =>
      call(
        'POST',
        '/erc/v1/erc20/deploy',
        { name: 'Once', symbol: 'ONE', alias: 'once', initialSupply: 5, blockchainNetwork: 31337 },
        { 'idempotency-key': 'deploy-1' },
      );
    const first = await deploy();
    expect(first.status, first.text).toBe(201);
    const again = await deploy();
    expect(again.status, again.text).toBe(201);
    expect(again.body).toEqual(first.body);
  });

  it('answers a repeated mint after it is mined, before the facade would refuse it', async () => {
    const mint7 = await keyedNftContract(call, 'Keyed art', 'QmKeyed');
    const mint = () => mint7('mint-7', 7);
    const first = await mint();
    expect(first.status, first.text).toBe(201);
    expect((await waitForFinalStatus(call, first.body.txHash)).status).toBe('confirmed');
    // Without the key this would be 400 CG_ERR_TOKEN_EXISTS: the token is minted, by this very request.
    const again = await mint();
    expect(again.status, again.text).toBe(201);
    expect(again.body).toEqual(first.body);
  });

  it('refuses a malformed key, naming the header', async () => {
    for (const key of ['has space', 'x'.repeat(129), 'é']) {
      const answer = await transfer(key);
      expect(answer.status, key).toBe(400);
      expect(answer.body.code).toBe('CG_ERR_VALIDATION');
      expect(answer.body.message).toContain('idempotency-key');
    }
    const both = await call(
      'POST',
      '/core/v1/evm/chain/transfer',
      { sender, recipient, blockchainNetwork: 31337, value: 1 },
      { 'idempotency-key': 'a', 'x-idempotency-key': 'b' },
    );
    expect(both.status).toBe(400);
    expect(both.body.message).toContain('Idempotency-Key');
  });
});

// A facade with a uniqueness of its own: an ERC-721 mint claims its ipfsHash before it is signed. A
// repetition that arrives between that claim and the first's stored transaction is the same request, so
// it is told the key is in use (ask again), not that the hash belongs to another mint. Held there by a
// lock on the sender's nonce row, which only a PostgreSQL server lets another session keep.
describe('a keyed ERC-721 mint asked again while the first is on its way', () => {
  let service: TestService;
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await createDatabase(inject('postgresUrl'));
    service = await startTestService({ CHAINGATE_SOROBAN: '0', DATABASE_URL: databaseUrl });
  });
  afterAll(() => service?.close());

  it('answers 409 in-use, not a duplicate ipfsHash, and then the first mint', async () => {
    const call = apiClient(service.url, service.auth);
    const mint = await keyedNftContract(call, 'Held art', 'QmHeld');

    const other = new pg.Client({ connectionString: databaseUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT * FROM evm_nonces WHERE chain_id = 31337 FOR UPDATE');
      const first = mint('mint-held', 1);
      for (;;) {
        const claimed = await other.query("SELECT 1 FROM erc721_ipfs_hashes WHERE ipfs_hash = 'QmHeld'");
        if (claimed.rows.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const again = await mint('mint-held', 1);
      expect(again.status, again.text).toBe(409);
      expect(again.body.code).toBe('CG_ERR_IDEMPOTENCY_KEY_IN_USE');
      // Another request for the same hash is still refused as a duplicate.
      const another = await mint('mint-other', 2);
      expect(another.body.code, another.text).toBe('CG_ERR_DUPLICATE_IPFS_HASH');
      await other.query('COMMIT');
      const minted = await first;
      expect(minted.status, minted.text).toBe(201);
      const later = await mint('mint-held', 1);
      expect(later.status, later.text).toBe(201);
      expect(later.body).toEqual(minted.body);
    } finally {
      await other.end();
    }
  });
});
