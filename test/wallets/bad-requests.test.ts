import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.ts';
import { createWallet, customerUrls, requestHash } from '../support/wallets.ts';

let service: TestService;
let smtp: SmtpSink;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  smtp = await startSmtpSink();
  service = await startTestService({ CHAINGATE_SOROBAN: '0', CHAINGATE_SMTP_URL: smtp.url });
  call = apiClient(service.url, service.auth);
});
afterAll(async () => {
  await service?.close();
  await smtp?.close();
});

const someone = '0x000000000000000000000000000000000000dEaD';
const garbage: unknown[] = [
  null,
  'x',
  -1,
  1.5,
  [],
  {},
  [1, 2],
  { a: 1 },
  '0x',
  true,
  '9'.repeat(90),
  '',
  '\u0000',
];

/** Every field of every wallet endpoint set to every garbage value: 4xx with a message, never a 5xx. */
it('answers malformed input to the wallet endpoints with 4xx and a message, never 5xx', {
  timeout: 180_000,
}, async () => {
  const wallet = await createWallet(service, call, {
    username: 'fuzz@example.com',
    strategy: 1,
    pin: '1357',
  });
  await createWallet(service, call, { username: 'fuzz.mail@example.com', strategy: 3, smtp });
  const { hash } = (await requestHash(call, 'fuzz.page@example.com', [1, 2, 3])).body;
  const page = apiClient(service.url, {});
  const admin = apiClient(service.url, { authorization: `Bearer ${service.credentials.adminToken}` });
  const requests: Array<[typeof call, string, string, Record<string, unknown>]> = [
    [
      call,
      'POST',
      '/cwll/v1/hash/new',
      { username: 'fuzz.new@example.com', strategies: [1, 2], ...customerUrls },
    ],
    [call, 'POST', '/cwll/v1/evm/wallet/custodied/address', { userEmail: 'fuzz@example.com' }],
    [call, 'GET', '/cwll/v1/evm/wallet/custodied/address', { userEmail: 'fuzz@example.com' }],
    [call, 'POST', '/cwll/v1/evm/wallet/custodied/list', { o: 0, n: 5 }],
    [
      call,
      'POST',
      '/core/v1/evm/wallet/custodied/transact/mutable?strategy=1',
      {
        contractAddress: someone,
        sender: wallet.address,
        blockchainNetwork: 31337,
        value: 0,
        method: 'transfer',
        params: [someone, 1],
        gasLimit: 100_000,
        pin: '1357',
      },
    ],
    [
      call,
      'POST',
      '/cwll/v1/evm/wallet/custodied/transfer?strategy=1',
      {
        sender: wallet.address,
        recipient: someone,
        blockchainNetwork: 31337,
        value: 1,
        gasPrice: 2_000_000_000,
        gasLimit: 30_000,
        myReference: 'fuzz',
        pin: '1357',
      },
    ],
    [page, 'POST', '/wallet/api/setup', { hash, username: 'fuzz.page@example.com', strategy: 2 }],
    [
      page,
      'POST',
      '/wallet/api/confirm',
      { hash, username: 'fuzz.page@example.com', strategy: 2, pin: '123456' },
    ],
  ];
  const serverErrors: string[] = [];
  for (const [client, method, path, valid] of requests) {
    for (const field of Object.keys(valid)) {
      for (const value of garbage) {
        const answer = await client(method, path, { ...valid, [field]: value });
        if (answer.status >= 500)
          serverErrors.push(
            `${method} ${path} ${field}=${JSON.stringify(value)} → ${answer.status} ${answer.text}`,
          );
        else if (answer.status >= 400) expect(typeof answer.body?.message).toBe('string');
      }
    }
  }
  const queries: Array<[typeof call, string, string]> = [
    [call, 'POST', '/cwll/v1/2fa/signature/otp/new?email=fuzz.mail%40example.com'],
    [call, 'GET', '/cwll/v1/evm/wallet/custodied/list?o=0&n=5'],
    [call, 'GET', '/cwll/v1/evm/wallet/custodied/address?userEmail=fuzz%40example.com'],
    [page, 'GET', `/wallet/api/hash/${hash}?username=fuzz.page%40example.com`],
    [
      admin,
      'GET',
      `/admin/v1/callbacks?applicationId=${service.credentials.applicationId}&state=pending&o=0&n=5`,
    ],
  ];
  for (const [client, method, path] of queries) {
    const url = new URL(path, service.url);
    for (const name of [...url.searchParams.keys()]) {
      for (const value of ['', 'x', '-1', '1.5', '9'.repeat(90), '[1]', '%00', 'a@b']) {
        const mangled = new URL(url);
        mangled.searchParams.set(name, value);
        const answer = await client(method, `${mangled.pathname}${mangled.search}`);
        if (answer.status >= 500)
          serverErrors.push(`${method} ${mangled.pathname}${mangled.search} → ${answer.status}`);
      }
    }
  }
  for (const path of [
    '/wallet/api/hash/%00?username=a',
    `/wallet/api/hash/${'x'.repeat(300)}?username=a`,
    '/wallet/api/hash/abc',
    '/admin/v1/applications/not-a-uuid/callback-key',
    '/core/v1/evm/wallet/custodied/transact/mutable?strategy=7',
  ]) {
    const answer = await (path.startsWith('/admin') ? admin : call)('GET', path);
    if (answer.status >= 500 || answer.status < 400)
      serverErrors.push(`GET ${path} → ${answer.status} ${answer.text}`);
  }
  for (const path of [
    '/wallet/api/confirm',
    '/cwll/v1/hash/new',
    '/core/v1/evm/wallet/custodied/transfer?strategy=1',
  ]) {
    const broken = await fetch(`${service.url}${path}`, {
      method: 'POST',
      headers: { ...service.auth, 'content-type': 'application/json' },
      body: '{"hash":',
    });
    expect(broken.status).toBe(400);
  }
  expect(serverErrors).toEqual([]);
});
