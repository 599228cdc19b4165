import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, deployErc20, waitForFinalStatus } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { codeIn, type SmtpSink, startSmtpSink } from '../support/smtp-sink.ts';
import { type CreatedWallet, createWallet, totpCode } from '../support/wallets.ts';

let service: TestService;
let smtp: SmtpSink;
let call: ReturnType<typeof apiClient>;
let token: string;
let pinWallet: CreatedWallet;

const mutablePath = (strategy: number, prefix = '/core/v1') =>
  `${prefix}/evm/wallet/custodied/transact/mutable?strategy=${strategy}`;
const transferPath = (strategy: number, prefix = '/core/v1') =>
  `${prefix}/evm/wallet/custodied/transfer?strategy=${strategy}`;

function freshAddress(): string {
  return privateKeyToAddress(generatePrivateKey());
}

async function balanceOf(address: string): Promise<number> {
  const answer = await call('POST', '/core/v1/evm/transact/view', {
    contractAddress: token,
    blockchainNetwork: 31337,
    method: 'balanceOf',
    params: [address],
  });
  return answer.body[0];
}

/** A token transfer from a wallet, with the unlock given as `pin`. */
function tokenTransfer(
  wallet: CreatedWallet,
  strategy: number,
  pin: unknown,
  extra: Record<string, unknown> = {},
) {
  return call('POST', mutablePath(strategy), {
    contractAddress: token,
    sender: wallet.address,
    blockchainNetwork: 31337,
    value: 0,
    method: 'transfer',
    params: [freshAddress(), 1],
    pin,
    ...extra,
  });
}

beforeAll(async () => {
  smtp = await startSmtpSink();
  service = await startTestService({ CHAINGATE_SMTP_URL: smtp.url });
  call = apiClient(service.url, service.auth);
  token = await deployErc20(call, service.credentials.sender, ['Gold', 'GLD', 1000]);
  pinWallet = await createWallet(service, call, { username: 'pin@example.com', strategy: 1, pin: '0123' });
  const fund = await call('POST', '/core/v1/evm/transact/mutable', {
    contractAddress: token,
    sender: service.credentials.sender,
    blockchainNetwork: 31337,
    method: 'transfer',
    params: [pinWallet.address, 1000],
  });
  expect((await waitForFinalStatus(call, fund.body.txHash)).status).toBe('confirmed');
});
afterAll(async () => {
  await service?.close();
  await smtp?.close();
});

describe('sending from a PIN wallet (strategy 1)', () => {
  it('sends a contract call that confirms on the devnet', async () => {
    const recipient = freshAddress();
    const sent = await call('POST', mutablePath(1), {
      contractAddress: token,
      sender: pinWallet.address,
      blockchainNetwork: 31337,
      value: 0,
      method: 'transfer',
      params: [recipient, 250],
      pin: '0123',
      myReference: 'custodiedCall1',
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      nonce: expect.any(Number),
    });
    const status = await waitForFinalStatus(call, sent.body.txHash);
    expect(status).toMatchObject({ status: 'confirmed', myReference: 'custodiedCall1' });
    expect(await balanceOf(recipient)).toBe(250);
  });

  it('transfers native coin (faucet-funded wallet), by POST and by GET with a body on the /cwll alias', async () => {
    const recipient = freshAddress();
    const byPost = await call('POST', transferPath(1), {
      sender: pinWallet.address,
      recipient,
      blockchainNetwork: 31337,
      value: '1000000000000000000',
      pin: '0123',
    });
    expect(byPost.status).toBe(201);
    expect((await waitForFinalStatus(call, byPost.body.txHash)).status).toBe('confirmed');
    const byGet = await call('GET', transferPath(1, '/cwll/v1'), {
      sender: pinWallet.address,
      recipient,
      network: 31337,
      value: 5,
      pin: '0123',
    });
    expect(byGet.status).toBe(201);
    expect((await waitForFinalStatus(call, byGet.body.txHash)).status).toBe('confirmed');
    const balance = await call('GET', `/core/v1/evm/chain/${recipient}/balance?network=31337`);
    expect(balance.body.balanceWei).toBe('1000000000000000005');
  });

  it('answers on the /cwll alias of transact/mutable too', async () => {
    const sent = await call('POST', mutablePath(1, '/cwll/v1'), {
      contract: token,
      sender: pinWallet.address,
      network: 31337,
      value: '0',
      method: 'transfer',
      params: [freshAddress(), 1],
      pin: '0123',
    });
    expect(sent.status).toBe(201);
  });

  it('refuses the wrong strategy (400), a wrong PIN (401, nothing sent) and a PIN number that lost its zero', async () => {
    const wrongStrategy = await tokenTransfer(pinWallet, 2, '0123');
    expect(wrongStrategy.status).toBe(400);
    expect(wrongStrategy.body.code).toBe('CG_ERR_WRONG_STRATEGY');
    const wrongPin = await tokenTransfer(pinWallet, 1, '9999', { myReference: 'wrongPin' });
    expect(wrongPin.status).toBe(401);
    expect(wrongPin.body.code).toBe('CG_ERR_INVALID_PIN');
    const records = await call('GET', '/core/v1/evm/info/transaction/reference/wrongPin');
    expect(records.body.info).toEqual([]);
    expect((await tokenTransfer(pinWallet, 1, 123)).status).toBe(401);
    const missing = await tokenTransfer(pinWallet, 1, undefined);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('pin');
    const noStrategy = await call('POST', '/core/v1/evm/wallet/custodied/transact/mutable', {
      contractAddress: token,
      sender: pinWallet.address,
      blockchainNetwork: 31337,
      value: 0,
      method: 'transfer',
      params: [freshAddress(), 1],
      pin: '0123',
    });
    expect(noStrategy.status).toBe(400);
    expect(noStrategy.body.message).toContain('strategy');
    // The good PIN clears the count of wrong ones.
    expect((await tokenTransfer(pinWallet, 1, '0123')).status).toBe(201);
  });

  it('takes a PIN sent as a number when it has no leading zero', async () => {
    const wallet = await createWallet(service, call, {
      username: 'number@example.com',
      strategy: 1,
      pin: '4321',
    });
    const sent = await call('POST', transferPath(1), {
      sender: wallet.address,
      recipient: freshAddress(),
      blockchainNetwork: 31337,
      value: 1,
      pin: 4321,
    });
    expect(sent.status).toBe(201);
  });

  it('locks the wallet after 5 wrong PINs in a row: 429 with Retry-After, even for the right PIN, for 15 minutes', async () => {
    const wallet = await createWallet(service, call, {
      username: 'lockout@example.com',
      strategy: 1,
      pin: '2468',
    });
    // A good PIN in between resets the count: 4 wrong, good, 4 wrong, good never locks.
    for (let round = 0; round < 2; round++) {
      for (let wrong = 0; wrong < 4; wrong++)
        expect((await tokenTransfer(wallet, 1, '1111')).status).toBe(401);
      const transfer = await call('POST', transferPath(1), {
        sender: wallet.address,
        recipient: freshAddress(),
        blockchainNetwork: 31337,
        value: 1,
        pin: '2468',
      });
      expect(transfer.status).toBe(201);
    }
    for (let wrong = 0; wrong < 5; wrong++) expect((await tokenTransfer(wallet, 1, '1111')).status).toBe(401);
    const locked = await fetch(`${service.url}${transferPath(1)}`, {
      method: 'POST',
      headers: { ...service.auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        sender: wallet.address,
        recipient: freshAddress(),
        blockchainNetwork: 31337,
        value: 1,
        pin: '2468',
      }),
    });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await locked.json()) as { code: string }).code).toBe('CG_ERR_WALLET_LOCKED');
    service.app.wallets.clock.advance(15 * 60 * 1000 + 1000);
    const after = await call('POST', transferPath(1), {
      sender: wallet.address,
      recipient: freshAddress(),
      blockchainNetwork: 31337,
      value: 1,
      pin: '2468',
    });
    expect(after.status).toBe(201);
  });
});

describe('sending from an authenticator wallet (strategy 2)', () => {
  it('accepts each code once: a replayed code answers 401 even within its 30 seconds', async () => {
    const wallet = await createWallet(service, call, { username: 'totp@example.com', strategy: 2 });
    const secret = wallet.totpSecret as string;
    // The code that created the wallet is spent; the next step's code is valid (one step of drift).
    const reused = await call('POST', transferPath(2), {
      sender: wallet.address,
      recipient: freshAddress(),
      blockchainNetwork: 31337,
      value: 1,
      pin: wallet.pin,
    });
    expect(reused.status).toBe(401);
    const next = totpCode(service, secret, 1);
    const sent = await call('POST', transferPath(2), {
      sender: wallet.address,
      recipient: freshAddress(),
      blockchainNetwork: 31337,
      value: 1,
      pin: next,
    });
    expect(sent.status).toBe(201);
    expect((await waitForFinalStatus(call, sent.body.txHash)).status).toBe('confirmed');
    const replay = await call('POST', transferPath(2), {
      sender: wallet.address,
      recipient: freshAddress(),
      blockchainNetwork: 31337,
      value: 1,
      pin: next,
    });
    expect(replay.status).toBe(401);
    service.app.wallets.clock.advance(60_000);
    const later = await call('POST', mutablePath(2), {
      contractAddress: token,
      sender: wallet.address,
      blockchainNetwork: 31337,
      value: 0,
      method: 'approve',
      params: [service.credentials.sender, 10],
      pin: totpCode(service, secret),
    });
    expect(later.status).toBe(201);
    expect((await waitForFinalStatus(call, later.body.txHash)).status).toBe('confirmed');
  });
});

describe('retrying a wallet send with an Idempotency-Key', () => {
  it('answers the first transaction, without the PIN or code taking part (a spent code is fine)', async () => {
    const wallet = await createWallet(service, call, { username: 'keyed@example.com', strategy: 2 });
    const code = totpCode(service, wallet.totpSecret as string, 1);
    const body = { sender: wallet.address, recipient: freshAddress(), blockchainNetwork: 31337, value: 1 };
    const keyed = (pin: string) =>
      call('POST', transferPath(2), { ...body, pin }, { 'idempotency-key': 'w-1' });
    const first = await keyed(code);
    expect(first.status, first.text).toBe(201);
    // The code is spent: without the key this is a 401; with it, the first send is answered and nothing runs.
    expect((await call('POST', transferPath(2), { ...body, pin: code })).status).toBe(401);
    const again = await keyed(code);
    expect(again.status, again.text).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await keyed('000000')).body).toEqual(first.body);
    expect((await waitForFinalStatus(call, first.body.txHash)).status).toBe('confirmed');
  });
});

describe('sending from an e-mail wallet (strategy 3)', () => {
  it('signs with an e-mailed OTP once; a used or expired (120 s) code answers 401', async () => {
    const username = 'mail@example.com';
    const wallet = await createWallet(service, call, { username, strategy: 3, smtp });
    const request = async () => {
      const answer = await call(
        'POST',
        `/cwll/v1/2fa/signature/otp/new?email=${encodeURIComponent(username)}`,
      );
      expect(answer.status).toBe(201);
      return codeIn(await smtp.nextMail(username));
    };
    const transfer = (pin: string) =>
      call('POST', transferPath(3), {
        sender: wallet.address,
        recipient: freshAddress(),
        blockchainNetwork: 31337,
        value: 1,
        pin,
      });
    const code = await request();
    const sent = await transfer(code);
    expect(sent.status).toBe(201);
    expect((await waitForFinalStatus(call, sent.body.txHash)).status).toBe('confirmed');
    expect((await transfer(code)).status).toBe(401);
    const late = await request();
    service.app.wallets.clock.advance(121_000);
    expect((await transfer(late)).status).toBe(401);
    const inTime = await request();
    expect((await transfer(inTime)).status).toBe(201);
  });
});
