import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { codeIn, type SmtpSink, startSmtpSink } from '../support/smtp-sink.ts';
import { createWallet, customerUrls, requestHash, totpCode } from '../support/wallets.ts';

let service: TestService;
let smtp: SmtpSink;
let call: ReturnType<typeof apiClient>;
let page: ReturnType<typeof apiClient>;
let admin: ReturnType<typeof apiClient>;

beforeAll(async () => {
  smtp = await startSmtpSink();
  service = await startTestService({ CHAINGATE_SMTP_URL: smtp.url });
  call = apiClient(service.url, service.auth);
  page = apiClient(service.url, {});
  admin = apiClient(service.url, { authorization: `Bearer ${service.credentials.adminToken}` });
});
afterAll(async () => {
  await service?.close();
  await smtp?.close();
});

describe('POST /cwll/v1/hash/new', () => {
  it('answers 201 with a single-use hash, its expiry (Unix seconds) and the wallet page link', async () => {
    const answer = await requestHash(call, 'Hash.User@Example.com', [1, 2, 3]);
    expect(answer.status).toBe(201);
    expect(answer.body.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(answer.body.expirationTime).toBeGreaterThan(Math.floor(service.app.wallets.clock.now() / 1000));
    expect(answer.body.walletUrl).toBe(
      `${service.url}/wallet/?hash=${answer.body.hash}&username=hash.user%40example.com`,
    );
  });

  it.each([
    [{ strategies: [] }, 'strategies'],
    [{ strategies: [4] }, 'strategies'],
    [{ strategies: [0, 1] }, 'strategies'],
    [{ strategies: [2, 2] }, 'strategies'],
    [{ strategies: ['x'] }, 'strategies'],
    [{ callbackUrl: 'ftp://shop.example/cb' }, 'callbackUrl'],
    [{ fallbackUrl: 'javascript:alert(1)' }, 'fallbackUrl'],
    [{ cancelUrl: 'not a url at all' }, 'cancelUrl'],
    [{ callbackUrl: 'http://exa mple.com/x' }, 'callbackUrl'],
    [{ username: 'not-an-email' }, 'username'],
    [{ username: 42 }, 'username'],
  ])('refuses %j with 400 naming %s', async (change, field) => {
    const body = { username: 'bad@example.com', strategies: [1], ...customerUrls, ...change };
    const answer = await call('POST', '/cwll/v1/hash/new', body);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(field);
  });

  it.each(['username', 'strategies', 'callbackUrl', 'fallbackUrl', 'cancelUrl'])(
    'refuses a body without %s (400 naming it)',
    async (field) => {
      const body: Record<string, unknown> = { username: 'bad@example.com', strategies: [1], ...customerUrls };
      delete body[field];
      const answer = await call('POST', '/cwll/v1/hash/new', body);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toContain(field);
    },
  );

  it('needs the application credentials', async () => {
    const answer = await apiClient(service.url, {})('POST', '/cwll/v1/hash/new', {
      username: 'a@example.com',
      strategies: [1],
      ...customerUrls,
    });
    expect(answer.status).toBe(401);
  });
});

describe('the page API', () => {
  it('describes an open hash, and treats a wrong username or unknown hash alike (404)', async () => {
    const { hash } = (await requestHash(call, 'page.user@example.com', [2, 3])).body;
    const info = await page('GET', `/wallet/api/hash/${hash}?username=Page.User%40example.com`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ state: 'open', username: 'page.user@example.com', strategies: [2, 3] });
    expect(info.body.fallbackUrl).toBe(customerUrls.fallbackUrl);
    const wrongUser = await page('GET', `/wallet/api/hash/${hash}?username=other%40example.com`);
    expect(wrongUser.status).toBe(404);
    expect(wrongUser.body.code).toBe('CG_ERR_UNKNOWN_HASH');
    expect((await page('GET', `/wallet/api/hash/${'0'.repeat(64)}?username=a%40b.c`)).status).toBe(404);
    const notAllowed = await page('POST', '/wallet/api/setup', {
      hash,
      username: 'page.user@example.com',
      strategy: 1,
    });
    expect(notAllowed.status).toBe(400);
    expect(notAllowed.body.code).toBe('CG_ERR_STRATEGY_NOT_ALLOWED');
    const early = await page('POST', '/wallet/api/confirm', {
      hash,
      username: 'page.user@example.com',
      strategy: 2,
      pin: '123456',
    });
    expect(early.status).toBe(400);
    expect(early.body.code).toBe('CG_ERR_SETUP_NOT_STARTED');
  });

  it('answers a QR code drawn as SVG for the authenticator, and refuses a wrong code with 401', async () => {
    const { hash } = (await requestHash(call, 'qr.user@example.com', [2])).body;
    const body = { hash, username: 'qr.user@example.com', strategy: 2 };
    const setup = await page('POST', '/wallet/api/setup', body);
    expect(setup.status).toBe(200);
    expect(setup.body.otpauthUri).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]+/);
    expect(setup.body.otpauthUri).toContain(`secret=${setup.body.secret}`);
    expect(setup.body.qrSvg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*role="img"/);
    expect(setup.body.qrSvg).not.toMatch(/style=|<script/);
    const good = totpCode(service, setup.body.secret);
    const wrong = good === '000000' ? '111111' : '000000';
    const refused = await page('POST', '/wallet/api/confirm', { ...body, pin: wrong });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('CG_ERR_INVALID_PIN');
    const accepted = await page('POST', '/wallet/api/confirm', { ...body, pin: good });
    expect(accepted.status).toBe(200);
  });

  it('creates a PIN wallet once: the hash is spent and the page says so', async () => {
    const { hash } = (await requestHash(call, 'pin.once@example.com', [1])).body;
    const body = { hash, username: 'pin.once@example.com', strategy: 1 };
    expect((await page('POST', '/wallet/api/setup', body)).body).toEqual({});
    const badPin = await page('POST', '/wallet/api/confirm', { ...body, pin: '12' });
    expect(badPin.status).toBe(400);
    expect(badPin.body.message).toContain('pin');
    const created = await page('POST', '/wallet/api/confirm', { ...body, pin: '0042' });
    expect(created.status).toBe(200);
    expect(created.body.accountAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const again = await page('POST', '/wallet/api/confirm', { ...body, pin: '0042' });
    expect(again.status).toBe(410);
    expect(again.body.code).toBe('CG_ERR_HASH_USED');
    const info = await page('GET', `/wallet/api/hash/${hash}?username=pin.once%40example.com`);
    expect(info.body.state).toBe('used');
    const second = await requestHash(call, 'pin.once@example.com', [1]);
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('CG_ERR_WALLET_EXISTS');
  });

  it('expires a hash after its lifetime (clock moved 31 minutes)', async () => {
    const { hash } = (await requestHash(call, 'late.user@example.com', [1, 3])).body;
    service.app.wallets.clock.advance(31 * 60 * 1000);
    const info = await page('GET', `/wallet/api/hash/${hash}?username=late.user%40example.com`);
    expect(info.body.state).toBe('expired');
    const setup = await page('POST', '/wallet/api/setup', {
      hash,
      username: 'late.user@example.com',
      strategy: 1,
    });
    expect(setup.status).toBe(410);
    expect(setup.body.code).toBe('CG_ERR_HASH_EXPIRED');
  });

  it('locks a hash after 5 wrong e-mailed codes in a row (429 with Retry-After)', async () => {
    const username = 'lock.setup@example.com';
    const { hash } = (await requestHash(call, username, [3])).body;
    const body = { hash, username, strategy: 3 };
    expect((await page('POST', '/wallet/api/setup', body)).status).toBe(200);
    const code = codeIn(await smtp.nextMail(username));
    const wrong = code === '999999' ? '999998' : '999999';
    for (let attempt = 1; attempt <= 5; attempt++)
      expect((await page('POST', '/wallet/api/confirm', { ...body, pin: wrong })).status).toBe(401);
    const locked = await page('POST', '/wallet/api/confirm', { ...body, pin: code });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('CG_ERR_WALLET_LOCKED');
    const resend = await page('POST', '/wallet/api/setup', body);
    expect(resend.status).toBe(429);
    expect(resend.body.code).toBe('CG_ERR_CODE_RECENTLY_SENT');
    // 15 minutes later the lock is gone (and the first code, valid 10 minutes, too): a new code works.
    service.app.wallets.clock.advance(15 * 60 * 1000);
    expect((await page('POST', '/wallet/api/confirm', { ...body, pin: code })).status).toBe(401);
    expect((await page('POST', '/wallet/api/setup', body)).status).toBe(200);
    const fresh = codeIn(await smtp.nextMail(username));
    expect((await page('POST', '/wallet/api/confirm', { ...body, pin: fresh })).status).toBe(200);
  });

  it('refuses unknown fields and malformed bodies with 400, never 5xx', async () => {
    const bodies = [
      { hash: 'x', username: 'a@b.c', strategy: 1, pin: '1234', extra: true },
      { hash: 'x', username: 'a@b.c', strategy: 9, pin: '1234' },
      { hash: '', username: 'a@b.c', strategy: 1, pin: '1234' },
      { hash: 'x'.repeat(500), username: 'a@b.c', strategy: 1, pin: '1234' },
      { hash: 'x', username: 'a@b.c', strategy: 1 },
      { hash: 'x', username: 'a@b.c', strategy: 1, pin: '12a4' },
      { hash: 'x', username: 'a@b.c', strategy: 1, pin: true },
      { hash: 'x', username: 'a@b.c', strategy: 1, pin: 1.5 },
      { hash: 'x', username: 'a@b.c', strategy: 1, pin: -1 },
      { hash: 'x', username: 'a@b.c', strategy: 1, pin: 'p'.repeat(65) },
    ];
    for (const body of bodies) {
      expect((await page('POST', '/wallet/api/confirm', body)).status).toBe(400);
    }
  });
});

describe('address, list and e-mail OTP', () => {
  it('reads the wallet address three ways, and 404 for a user without one', async () => {
    const wallet = await createWallet(service, call, { username: 'reader@example.com', strategy: 1 });
    const expected = { accountAddress: wallet.address, strategy: 1 };
    const path = '/cwll/v1/evm/wallet/custodied/address';
    expect((await call('GET', path, { userEmail: 'Reader@example.com' })).body).toEqual(expected);
    expect((await call('POST', path, { userEmail: 'reader@example.com' })).body).toEqual(expected);
    expect((await call('GET', `${path}?userEmail=reader%40example.com`)).body).toEqual(expected);
    const missing = await call('GET', path, { userEmail: 'nobody@example.com' });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('CG_ERR_UNKNOWN_WALLET');
    expect((await call('GET', path, {})).status).toBe(400);
  });

  it('lists wallets in pages: defaults 0 and 20, at most 100, bare array', async () => {
    const all = await call('GET', '/cwll/v1/evm/wallet/custodied/list');
    expect(all.status).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.body.length).toBeGreaterThanOrEqual(3);
    for (const entry of all.body) {
      expect(entry).toEqual({
        id: expect.any(String),
        strategy: expect.any(Number),
        userEmail: expect.stringContaining('@'),
        accountHash: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
        accountAddress: entry.accountHash,
        creationTimestamp: expect.any(Number),
      });
    }
    const second = await call('GET', '/cwll/v1/evm/wallet/custodied/list?o=1&n=1');
    expect(second.body).toEqual([all.body[1]]);
    expect((await call('POST', '/cwll/v1/evm/wallet/custodied/list', { o: 1, n: 1 })).body).toEqual([
      all.body[1],
    ]);
    expect((await call('GET', '/cwll/v1/evm/wallet/custodied/list?n=100000')).body).toEqual(all.body);
    expect((await call('GET', '/cwll/v1/evm/wallet/custodied/list?o=100000')).body).toEqual([]);
    expect((await call('GET', '/cwll/v1/evm/wallet/custodied/list?n=-1')).status).toBe(400);
    expect((await call('GET', '/cwll/v1/evm/wallet/custodied/list?o=abc')).status).toBe(400);
  });

  it('e-mails a 6-digit OTP (201, no body) to a strategy-3 user only', async () => {
    const username = 'otp.user@example.com';
    await createWallet(service, call, { username, strategy: 3, smtp });
    const sent = await call('POST', `/cwll/v1/2fa/signature/otp/new?email=${encodeURIComponent(username)}`);
    expect(sent.status).toBe(201);
    expect(sent.text).toBe('');
    const mail = await smtp.nextMail(username);
    expect(codeIn(mail)).toMatch(/^\d{6}$/);
    expect(mail.raw).toContain('Content-Type: text/plain');
    expect(mail.raw).toContain('Content-Type: text/html');
    const unknown = await call('POST', '/cwll/v1/2fa/signature/otp/new?email=ghost%40example.com');
    expect(unknown.status).toBe(404);
    const pinUser = await call('POST', '/cwll/v1/2fa/signature/otp/new?email=reader%40example.com');
    expect(pinUser.status).toBe(400);
    expect(pinUser.body.code).toBe('CG_ERR_WRONG_STRATEGY');
    expect((await call('POST', '/cwll/v1/2fa/signature/otp/new')).status).toBe(400);
    expect((await call('POST', '/cwll/v1/2fa/signature/otp/new?email=nope')).status).toBe(400);
  });
});

describe('another application', () => {
  it('gets 404 for the first application’s wallets everywhere, and lists only its own', async () => {
    const wallet = await createWallet(service, call, {
      username: 'private@example.com',
      strategy: 1,
      pin: '4321',
    });
    const created = await admin('POST', '/admin/v1/applications', { name: 'other', plan: 'premium' });
    expect(created.status).toBe(201);
    const other = apiClient(service.url, {
      authorization: `Bearer ${created.body.apiKey}`,
      'x-application-svc': created.body.applicationId,
    });
    const address = await other('GET', '/cwll/v1/evm/wallet/custodied/address', {
      userEmail: 'private@example.com',
    });
    expect(address.status).toBe(404);
    expect((await other('GET', '/cwll/v1/evm/wallet/custodied/list')).body).toEqual([]);
    const otp = await other('POST', '/cwll/v1/2fa/signature/otp/new?email=private%40example.com');
    expect(otp.status).toBe(404);
    const transfer = await other('POST', '/core/v1/evm/wallet/custodied/transfer?strategy=1', {
      sender: wallet.address,
      recipient: created.body.sender,
      blockchainNetwork: 31337,
      value: '1',
      pin: '4321',
    });
    expect(transfer.status).toBe(404);
    expect(transfer.body.code).toBe('CG_ERR_UNKNOWN_WALLET');
    const mutable = await other('POST', '/core/v1/evm/wallet/custodied/transact/mutable?strategy=1', {
      contractAddress: created.body.sender,
      sender: wallet.address,
      blockchainNetwork: 31337,
      value: 0,
      method: 'approve',
      params: [],
      pin: '4321',
    });
    expect(mutable.status).toBe(404);
    // The other application may create a wallet for the same e-mail address: it is its own user.
    const mine = await createWallet(service, other, { username: 'private@example.com', strategy: 1 });
    expect(mine.address).not.toBe(wallet.address);
    // And the first application cannot use that one either.
    const cross = await call('POST', '/core/v1/evm/wallet/custodied/transfer?strategy=1', {
      sender: mine.address,
      recipient: wallet.address,
      blockchainNetwork: 31337,
      value: '1',
      pin: '0123',
    });
    expect(cross.status).toBe(404);
  });
});
