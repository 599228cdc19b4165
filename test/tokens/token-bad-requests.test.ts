import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { type Call, confirmed } from './token-test-client.ts';

let service: TestService;
let call: Call;
const contracts: Record<string, string> = {};
const someone = '0x000000000000000000000000000000000000dEaD';

type Kind =
  | 'address'
  | 'uint'
  | 'network'
  | 'text'
  | 'uri'
  | 'percent'
  | 'page'
  | 'nonce'
  | 'uintList'
  | 'poapAmount'
  | 'sender';

// A mixed-case address with a wrong checksum (an all-caps one carries no checksum, as EIP-55 says).
const badChecksum = '0x000000000000000000000000000000000000DeaD';

/**
 * Values each kind of field must refuse with a 400 that names the field. Scalars the app-wide
 * validator coerces in query strings (a number for a string, a boolean for an integer) are not
 * garbage here.
 */
const garbage: Record<Kind, unknown[]> = {
  address: ['nope', '0x1234', 42, badChecksum, `${badChecksum}00`, { a: 1 }, ['0x']],
  sender: ['nope', '0x1234', 7, badChecksum],
  uint: ['abc', -1, 1.5, '1e3', '-5', '0x10', '9'.repeat(78), '1'.repeat(79), { n: 1 }, [1, 2]],
  network: ['abc', 0, -1, 1.5, 99_999, '31337x', { id: 1 }],
  text: ['', 'x'.repeat(1_000), { s: 'x' }, [1, 2]],
  uri: ['', 'x'.repeat(3_000), { u: 1 }],
  percent: [101, -1, 1.5, 'lots', '1e400'],
  page: [0, -1, 1.5, 'x', 1_000_001, '1e400'],
  nonce: [-1, 1.5, 'x', '1e400', 2 ** 60],
  uintList: ['abc', [], ['x'], [-1], [1.5], Array.from({ length: 501 }, () => 1), { 0: 1 }],
  poapAmount: ['abc', [], ['x'], -1, 1.5, { a: 1 }],
};

type Endpoint = {
  path: string;
  method: 'POST' | 'GET';
  base: () => Record<string, unknown>;
  fields: Record<string, Kind>;
  required: string[];
};

const on = (standard: string, extra: Record<string, unknown>) => () => ({
  contractAddress: contracts[standard],
  network: 31337,
  ...extra,
});

const endpoints: Endpoint[] = [
  {
    path: '/erc/v1/erc20/deploy',
    method: 'POST',
    base: () => ({ name: 'A', symbol: 'A', alias: 'a', initialSupply: 1, network: 31337 }),
    fields: {
      name: 'text',
      symbol: 'text',
      alias: 'text',
      initialSupply: 'uint',
      network: 'network',
      sender: 'sender',
    },
    required: ['name', 'symbol', 'alias', 'initialSupply', 'network'],
  },
  {
    path: '/erc/v1/erc20/transfer',
    method: 'POST',
    base: on('ERC20', { recipient: someone, amount: 1 }),
    fields: {
      contractAddress: 'address',
      recipient: 'address',
      amount: 'uint',
      network: 'network',
      gasLimit: 'uint',
      nonce: 'nonce',
    },
    required: ['contractAddress', 'recipient', 'amount', 'network'],
  },
  {
    path: '/erc/v1/erc20/transferFrom',
    method: 'POST',
    base: on('ERC20', { sender: someone, recipient: someone, amount: 1 }),
    fields: {
      contractAddress: 'address',
      sender: 'address',
      recipient: 'address',
      amount: 'uint',
      spender: 'sender',
    },
    required: ['contractAddress', 'sender', 'recipient', 'amount', 'network'],
  },
  {
    path: '/erc/v1/erc20/increaseAllowance',
    method: 'POST',
    base: on('ERC20', { spender: someone, addedValue: 1 }),
    fields: { contractAddress: 'address', spender: 'address', addedValue: 'uint', network: 'network' },
    required: ['contractAddress', 'spender', 'addedValue', 'network'],
  },
  {
    path: '/erc/v1/erc20/decreaseAllowance',
    method: 'POST',
    base: on('ERC20', { spender: someone, subtractedValue: 1 }),
    fields: { contractAddress: 'address', spender: 'address', subtractedValue: 'uint', network: 'network' },
    required: ['contractAddress', 'spender', 'subtractedValue', 'network'],
  },
  ...['allowance', 'name', 'symbol', 'totalSupply', 'decimals', 'balanceOf'].map(
    (name): Endpoint => ({
      path: `/erc/v1/erc20/${name}`,
      method: 'GET',
      base: on('ERC20', name === 'allowance' ? { owner: someone, spender: someone } : { address: someone }),
      fields:
        name === 'allowance'
          ? { contractAddress: 'address', network: 'network', owner: 'address', spender: 'address' }
          : name === 'balanceOf'
            ? { contractAddress: 'address', network: 'network', address: 'address' }
            : { contractAddress: 'address', network: 'network' },
      required:
        name === 'allowance'
          ? ['contractAddress', 'network', 'owner', 'spender']
          : name === 'balanceOf'
            ? ['contractAddress', 'network', 'address']
            : ['contractAddress', 'network'],
    }),
  ),
  {
    path: '/erc/v1/erc721/deploy',
    method: 'POST',
    base: () => ({ name: 'A', symbol: 'A', network: 31337 }),
    fields: { name: 'text', symbol: 'text', alias: 'text', network: 'network', gasLimit: 'uint' },
    required: ['name', 'symbol', 'network'],
  },
  {
    path: '/erc/v1/erc721/mint',
    method: 'POST',
    base: on('ERC721', { recipientAddress: someone, tokenId: 1, ipfsUri: 'ipfs://a', ipfsHash: 'Qm' }),
    fields: {
      contractAddress: 'address',
      recipientAddress: 'address',
      tokenId: 'uint',
      ipfsUri: 'uri',
      ipfsHash: 'text',
      royaltyPercentage: 'percent',
      network: 'network',
    },
    required: ['contractAddress', 'recipientAddress', 'tokenId', 'ipfsUri', 'ipfsHash', 'network'],
  },
  {
    path: '/erc/v1/erc721/transfer',
    method: 'POST',
    base: on('ERC721', { id: 1, from: someone, to: someone }),
    fields: { contractAddress: 'address', id: 'uint', from: 'address', to: 'address', sender: 'sender' },
    required: ['contractAddress', 'id', 'from', 'to', 'network'],
  },
  {
    path: '/erc/v1/erc721/balanceOf',
    method: 'GET',
    base: on('ERC721', { address: someone }),
    fields: { contractAddress: 'address', network: 'network', address: 'address' },
    required: ['contractAddress', 'network', 'address'],
  },
  ...['tokenUri', 'ownerOf'].map(
    (name): Endpoint => ({
      path: `/erc/v1/erc721/${name}`,
      method: 'GET',
      base: on('ERC721', { id: 1 }),
      fields: { contractAddress: 'address', network: 'network', id: 'uint' },
      required: ['contractAddress', 'network', 'id'],
    }),
  ),
  {
    path: '/erc/v1/erc1155/deploy',
    method: 'POST',
    base: () => ({
      name: 'A',
      symbol: 'A',
      ipfsUri: 'ipfs://a',
      royaltyRecipient: someone,
      royaltyValue: 1,
      alias: 'a',
      network: 31337,
    }),
    fields: {
      name: 'text',
      symbol: 'text',
      ipfsUri: 'uri',
      royaltyRecipient: 'address',
      royaltyValue: 'percent',
      alias: 'text',
      network: 'network',
    },
    required: ['name', 'symbol', 'ipfsUri', 'royaltyRecipient', 'royaltyValue', 'alias', 'network'],
  },
  ...['mint', 'transfer'].map(
    (name): Endpoint => ({
      path: `/erc/v1/erc1155/${name}`,
      method: 'POST',
      base: on('ERC1155', { to: someone, id: 1, amount: 1 }),
      fields: { contractAddress: 'address', to: 'address', id: 'uint', amount: 'uint', network: 'network' },
      required: ['contractAddress', 'to', 'id', 'amount', 'network'],
    }),
  ),
  ...['mintbatch', 'transferBatch'].map(
    (name): Endpoint => ({
      path: `/erc/v1/erc1155/${name}`,
      method: 'POST',
      base: on('ERC1155', { to: someone, ids: [1], amounts: [1] }),
      fields: {
        contractAddress: 'address',
        to: 'address',
        ids: 'uintList',
        amounts: 'uintList',
        network: 'network',
      },
      required: ['contractAddress', 'to', 'ids', 'amounts', 'network'],
    }),
  ),
  {
    path: '/erc/v1/erc1155/balanceOf',
    method: 'GET',
    base: on('ERC1155', { address: someone, id: 1 }),
    fields: { contractAddress: 'address', network: 'network', address: 'address', id: 'uint' },
    required: ['contractAddress', 'network', 'address', 'id'],
  },
  {
    path: '/erc/v1/erc1155/tokenUri',
    method: 'GET',
    base: on('ERC1155', { id: 1 }),
    fields: { contractAddress: 'address', network: 'network', id: 'uint' },
    required: ['contractAddress', 'network', 'id'],
  },
  {
    path: '/erc/v1/poap/deploy',
    method: 'POST',
    base: () => ({ name: 'A', amount: 1, ipfsUri: 'ipfs://a', alias: 'a', network: 31337 }),
    fields: { name: 'text', amount: 'poapAmount', ipfsUri: 'uri', alias: 'text', network: 'network' },
    required: ['name', 'amount', 'ipfsUri', 'alias', 'network'],
  },
  {
    path: '/erc/v1/poap/transfer',
    method: 'POST',
    base: on('POAP', { to: someone, id: 1 }),
    fields: { contractAddress: 'address', to: 'address', id: 'uint', network: 'network', sender: 'sender' },
    required: ['contractAddress', 'to', 'id', 'network'],
  },
  {
    path: '/erc/v1/poap/balanceOf',
    method: 'GET',
    base: on('POAP', { address: someone, id: 1 }),
    fields: { contractAddress: 'address', network: 'network', address: 'address', id: 'uint' },
    required: ['contractAddress', 'network', 'address', 'id'],
  },
  {
    path: '/erc/v1/erc20/holders',
    method: 'GET',
    base: on('ERC20', {}),
    fields: { contractAddress: 'address', network: 'network', page: 'page', pageSize: 'page' },
    required: ['contractAddress', 'network'],
  },
  {
    path: '/erc/v1/erc1155/holders',
    method: 'GET',
    base: on('ERC1155', {}),
    fields: { contractAddress: 'address', network: 'network', id: 'uint' },
    required: ['contractAddress', 'network'],
  },
];

beforeAll(async () => {
  service = await startTestService();
  call = apiClient(service.url, service.auth);
  const [erc20, erc721, erc1155, poap] = await Promise.all([
    confirmed(call, '/erc/v1/erc20/deploy', {
      name: 'G',
      symbol: 'G',
      alias: 'g',
      initialSupply: 1,
      network: 31337,
    }),
    confirmed(call, '/erc/v1/erc721/deploy', { name: 'N', symbol: 'N', network: 31337 }),
    confirmed(call, '/erc/v1/erc1155/deploy', {
      name: 'M',
      symbol: 'M',
      ipfsUri: 'ipfs://m',
      royaltyRecipient: someone,
      royaltyValue: 1,
      alias: 'm',
      network: 31337,
    }),
    confirmed(call, '/erc/v1/poap/deploy', {
      name: 'P',
      amount: 1,
      ipfsUri: 'ipfs://p',
      alias: 'p',
      network: 31337,
    }),
  ]);
  Object.assign(contracts, {
    ERC20: erc20.body.contractAddress,
    ERC721: erc721.body.contractAddress,
    ERC1155: erc1155.body.contractAddress,
    POAP: poap.body.contractAddress,
  });
});
afterAll(async () => service?.close());

/** Every way a read arrives; a POST-only endpoint is only POSTed. */
async function send(endpoint: Endpoint, body: Record<string, unknown>) {
  if (endpoint.method === 'POST') return [await call('POST', endpoint.path, body)];
  return [await call('POST', endpoint.path, body), await call('GET', endpoint.path, body)];
}

describe.each(endpoints)('$path', (endpoint) => {
  it.each(endpoint.required)('answers 400 naming a missing %s', async (field) => {
    const body = endpoint.base();
    delete body[field];
    for (const answer of await send(endpoint, body)) {
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.message).toContain(field);
    }
  });

  it.each(Object.entries(endpoint.fields))('answers 400 naming a garbage %s', async (field, kind) => {
    for (const value of garbage[kind]) {
      // An empty alias is "not given" (Go's zero string): on an optional alias that is no error.
      if (field === 'alias' && value === '' && !endpoint.required.includes('alias')) continue;
      for (const answer of await send(endpoint, { ...endpoint.base(), [field]: value })) {
        expect(answer.status, `${field}=${JSON.stringify(value)}: ${answer.text}`).toBe(400);
        expect(answer.body.message, `${field}=${JSON.stringify(value)}`).toContain(field);
      }
    }
  });
});

describe('query strings and bodies', () => {
  it('names the garbage field of a GET query string', async () => {
    const bad = await call(
      'GET',
      `/erc/v1/erc20/balanceOf?contractAddress=nope&network=31337&address=${someone}`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('contractAddress');
    const ids = await call(
      'GET',
      `/erc/v1/erc1155/tokenUri?contractAddress=${contracts.ERC1155}&network=31337&id=x`,
    );
    expect(ids.status).toBe(400);
    expect(ids.body.message).toContain('id');
  });

  it('refuses a body that is not a JSON object', async () => {
    for (const body of [[1, 2], 'text', 5]) {
      const answer = await call('POST', '/erc/v1/erc20/transfer', body);
      expect(answer.status, answer.text).toBe(400);
    }
  });

  it('refuses an unknown network by name', async () => {
    const answer = await call('POST', '/erc/v1/erc20/name', { contractAddress: contracts.ERC20, network: 5 });
    expect(answer).toMatchObject({ status: 400, body: { code: 'CG_ERR_UNKNOWN_NETWORK' } });
    expect(answer.body.message).toContain('network');
  });
});

describe('OpenAPI', () => {
  it('documents every token endpoint with its input, its answers and the synonyms it accepts', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document as JSON
    const document: any = await (await fetch(`${service.url}/openapi.json`)).json();
    const paths = Object.keys(document.paths).filter((path) => path.startsWith('/erc/v1/'));
    expect(paths).toHaveLength(36);
    for (const path of paths) {
      for (const [method, operation] of Object.entries<typeof document>(document.paths[path])) {
        const input = method === 'get' ? operation.parameters : operation.requestBody;
        expect(input, `${method} ${path}`).toBeDefined();
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(
          expect.arrayContaining([
            method === 'get' || !path.match(/deploy|transfer|mint|Allowance/) ? '200' : '201',
            '400',
            '401',
          ]),
        );
        if (method === 'post') {
          const schema = operation.requestBody.content['application/json'].schema;
          expect(schema.description, `${method} ${path}`).toContain('`blockchainNetwork` for `network`');
        }
      }
    }
    const deploy = document.paths['/erc/v1/erc20/deploy'].post.requestBody.content['application/json'].schema;
    expect(deploy.description).toContain('`initualSupply`');
  });
});
