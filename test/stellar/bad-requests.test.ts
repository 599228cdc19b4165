import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { deployAndWait, LOCAL, savedId, saveWasm } from './support/stellar-api.ts';
import { echoTypes, typesWasm } from './support/test-contracts.ts';

let service: TestService;
let call: ReturnType<typeof apiClient>;
let own: string;
let specId: number;
let contract: string;

beforeAll(async () => {
  service = await startTestService({ CHAINGATE_DEVNET: '0', LOG_LEVEL: 'error' });
  call = apiClient(service.url, service.auth);
  own = (await call('GET', `/stellar/v1/account?networkId=${LOCAL}`)).body.account;
  specId = await savedId(service.url, service.auth, await typesWasm(), 'types');
  contract = await deployAndWait(call, specId);
});
afterAll(async () => service?.close());

const garbage: unknown[] = [
  null,
  'x',
  '',
  -1,
  1.5,
  2 ** 53 + 2,
  [],
  {},
  [1, 2],
  { a: 1 },
  '0x',
  true,
  '9'.repeat(90),
  `G${'A'.repeat(55)}`,
  `C${'A'.repeat(55)}`,
  { tag: 5, values: 'x' },
  [[[[[[[[[[1]]]]]]]]]],
  { __proto__: { polluted: true } },
];

/** Every field of every Stellar endpoint set to every garbage value: 4xx with a message, never a 5xx. */
it('answers malformed input with 4xx and a message, never 5xx', { timeout: 300_000 }, async () => {
  const requests: Array<[string, Record<string, unknown>]> = [
    ['/stellar/v1/account/fund', { account: Keypair.random().publicKey(), networkId: LOCAL }],
    ['/stellar/v1/account/balance', { account: own, networkId: LOCAL }],
    ['/stellar/v1/account', { networkId: LOCAL }],
    [
      '/stellar/v1/contract/deployment',
      { contractSpecsId: specId, blockchainNetwork: LOCAL, myReference: 'ref1' },
    ],
    [
      '/stellar/v1/contract/deployment/estimate',
      { contractSpecsId: specId, blockchainNetwork: LOCAL, params: [] },
    ],
    [
      '/stellar/v1/contract/invoke',
      {
        blockchainNetwork: LOCAL,
        address: contract,
        method: 'e_u32',
        params: [1],
        restore: false,
        myReference: 'r',
      },
    ],
    [
      '/stellar/v1/contract/invoke/estimate',
      { blockchainNetwork: LOCAL, address: contract, method: 'e_u32', params: [1], restore: true },
    ],
    [
      '/stellar/v1/contract/invoke/extendttl',
      { blockchainNetwork: LOCAL, address: contract, extend_to: 100 },
    ],
    [`/stellar/v1/contract/${specId}/methods`, { blockchainNetwork: LOCAL }],
    [`/stellar/v1/contract/${specId}/contracttl`, { blockchainNetwork: LOCAL }],
    [`/stellar/v1/contract/${contract}/instancettl`, { blockchainNetwork: LOCAL, sourceAccount: own }],
  ];
  const serverErrors: string[] = [];
  const check = (what: string, answer: { status: number; text: string; body: { message?: unknown } }) => {
    if (answer.status >= 500) serverErrors.push(`${what} → ${answer.status} ${answer.text.slice(0, 300)}`);
    else if (answer.status >= 400) expect(typeof answer.body?.message, what).toBe('string');
  };
  for (const [path, valid] of requests) {
    for (const field of Object.keys(valid)) {
      for (const value of garbage) {
        const body = { ...valid, [field]: value };
        check(`POST ${path} ${field}=${JSON.stringify(value)}`, await call('POST', path, body));
      }
    }
    // Missing fields, and reads as GET with a body.
    check(`POST ${path} {}`, await call('POST', path, {}));
    check(`GET ${path} body`, await call('GET', path, { ...valid, networkId: 'x', blockchainNetwork: 'x' }));
  }
  // Parameters of every type, each given every garbage value.
  for (const method of [...Object.keys(echoTypes), 'pair']) {
    for (const value of garbage) {
      const answer = await call('POST', '/stellar/v1/contract/invoke/estimate', {
        blockchainNetwork: LOCAL,
        address: contract,
        method,
        params: method === 'pair' ? [value, value] : [value],
        restore: false,
      });
      check(`estimate ${method}(${JSON.stringify(value)})`, answer);
    }
  }
  for (const path of [
    `/stellar/v1/transaction/0x12/info?network=${LOCAL}`,
    `/stellar/v1/transaction/${'ab'.repeat(32)}/info?network=abc`,
    `/stellar/v1/transaction/${'ab'.repeat(32)}/info?network=${2 ** 40}`,
    '/stellar/v1/transaction/reference/not-alphanumeric!',
    `/stellar/v1/transaction/reference/${'a'.repeat(200)}`,
    `/stellar/v1/contract/abc/methods?blockchainNetwork=${LOCAL}`,
    `/stellar/v1/contract/99999999999/methods?blockchainNetwork=${LOCAL}`,
    `/stellar/v1/contract/0/contracttl?blockchainNetwork=${LOCAL}`,
    `/stellar/v1/contract/GABC/instancettl?blockchainNetwork=${LOCAL}&sourceAccount=${own}`,
    `/stellar/v1/account/balance?account=${own}&networkId=${LOCAL}&networkId=1`,
    `/stellar/v1/account?networkId=[1,2]`,
  ]) {
    const answer = await call('GET', path);
    if (answer.status >= 500 || answer.status < 400)
      serverErrors.push(`GET ${path} → ${answer.status} ${answer.text}`);
  }
  // Multipart that is not what save takes.
  const boundary = '----cg';
  for (const [contentType, body] of [
    [
      `multipart/form-data; boundary=${boundary}`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"`,
    ],
    [`multipart/form-data; boundary=${boundary}`, 'garbage'],
    ['multipart/form-data', 'no boundary'],
    ['application/octet-stream', 'bytes'],
    ['text/plain', 'file=1'],
  ]) {
    const response = await fetch(`${service.url}/stellar/v1/contract/save`, {
      method: 'POST',
      headers: { ...service.auth, 'content-type': contentType as string },
      body: body as string,
    });
    const text = await response.text();
    if (response.status >= 500 || response.status < 400)
      serverErrors.push(`save ${contentType} ${JSON.stringify(body)} → ${response.status} ${text}`);
  }
  const huge = await saveWasm(service.url, service.auth, { file: Buffer.alloc(300 * 1024, 1), name: 'huge' });
  if (huge.status >= 500 || huge.status < 400) serverErrors.push(`save huge → ${huge.status} ${huge.text}`);
  const twoFiles = new FormData();
  twoFiles.append('file', new Blob([Buffer.from('a')]), 'a.wasm');
  twoFiles.append('file', new Blob([Buffer.from('b')]), 'b.wasm');
  twoFiles.append('name', 'x');
  const twice = await fetch(`${service.url}/stellar/v1/contract/save`, {
    method: 'POST',
    headers: service.auth,
    body: twoFiles,
  });
  if (twice.status >= 500 || twice.status < 400) serverErrors.push(`save two files → ${twice.status}`);
  expect(serverErrors).toEqual([]);
});

it('lists every Stellar endpoint in the OpenAPI document with its error codes', async () => {
  const document = (await call('GET', '/openapi.json')).body;
  const paths = Object.keys(document.paths).filter((path) => path.startsWith('/stellar/v1'));
  expect(paths.sort()).toEqual(
    [
      '/stellar/v1/account',
      '/stellar/v1/account/balance',
      '/stellar/v1/account/fund',
      '/stellar/v1/contract/deployment',
      '/stellar/v1/contract/deployment/estimate',
      '/stellar/v1/contract/invoke',
      '/stellar/v1/contract/invoke/estimate',
      '/stellar/v1/contract/invoke/extendttl',
      '/stellar/v1/contract/save',
      '/stellar/v1/contract/upload',
      '/stellar/v1/contract/upload/{filename}/status',
      '/stellar/v1/contract/{address}/instancettl',
      '/stellar/v1/contract/{contractId}/contracttl',
      '/stellar/v1/contract/{contractId}/methods',
      '/stellar/v1/transaction/reference/{reference}',
      '/stellar/v1/transaction/{txHash}/info',
    ].sort(),
  );
  const save = document.paths['/stellar/v1/contract/save'].post;
  expect(Object.keys(save.requestBody.content)).toEqual(['multipart/form-data']);
  expect(save.responses['400'].content['application/json'].schema.properties.code.enum).toContain(
    'CG_ERR_STELLAR_INVALID_WASM',
  );
  const invoke = document.paths['/stellar/v1/contract/invoke'].post;
  expect(Object.keys(invoke.responses).sort()).toEqual(
    ['200', '400', '401', '403', '409', '413', '415', '503'].sort(),
  );
});
