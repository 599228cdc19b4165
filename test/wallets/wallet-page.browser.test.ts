import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.ts';
import {
  type CallbackReceiver,
  signatureIsValid,
  startCallbackReceiver,
} from '../support/callback-receiver.ts';
import { artifactsDir, type Chromium, launchChromium } from '../support/chromium.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { codeIn, type SmtpSink, startSmtpSink } from '../support/smtp-sink.ts';
import { requestHash } from '../support/wallets.ts';

let service: TestService;
let smtp: SmtpSink;
let receiver: CallbackReceiver;
let browser: Chromium;
let call: ReturnType<typeof apiClient>;
const artifacts = artifactsDir('wallet-page');

/** Everything a page did that the test checks afterwards: its requests and console complaints. */
type Watched = { page: Page; requests: string[]; problems: string[] };

async function openPage(url: string): Promise<Watched> {
  const page = await browser.context.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    // An API answer of 4xx is part of the flow (a wrong code); anything else the console reports is not.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(url);
  return { page, requests, problems };
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
}

/** The id of the element that has the keyboard focus. */
function activeId(page: Page): Promise<unknown> {
  return page.evaluate('document.activeElement && document.activeElement.id');
}

/** Usable on a 360 px wide screen: nothing wider than the viewport. */
async function expectFitsPhone(page: Page): Promise<void> {
  const width = await page.evaluate('document.documentElement.scrollWidth');
  expect(width).toBeLessThanOrEqual(360);
}

async function expectCallback(username: string, strategy: number, address: string): Promise<void> {
  const callback = await receiver.next();
  const key = (
    await apiClient(service.url, { authorization: `Bearer ${service.credentials.adminToken}` })(
      'GET',
      `/admin/v1/applications/${service.credentials.applicationId}/callback-key`,
    )
  ).body.callbackKey;
  expect(signatureIsValid(callback, key)).toBe(true);
  expect(JSON.parse(callback.body)).toMatchObject({ username, strategy, accountAddress: address });
}

/** Only the service's own origin was asked for anything, and no URL carried `secret`. */
function expectOnlyOwnRequests(watched: Watched, secret?: string): void {
  const origin = new URL(service.url).origin;
  for (const url of watched.requests) {
    expect(new URL(url).origin).toBe(origin);
    if (secret) expect(url).not.toContain(secret);
  }
  expect(watched.problems).toEqual([]);
}

async function newLink(username: string, strategies: number[]): Promise<string> {
  const answer = await requestHash(call, username, strategies, {
    callbackUrl: receiver.url,
    cancelUrl: `${receiver.url.replace('/wallet-created', '')}/cancelled`,
    fallbackUrl: `${receiver.url.replace('/wallet-created', '')}/fallback`,
  });
  expect(answer.status).toBe(201);
  return answer.body.walletUrl;
}

beforeAll(async () => {
  smtp = await startSmtpSink();
  receiver = await startCallbackReceiver();
  service = await startTestService({ CHAINGATE_SMTP_URL: smtp.url });
  call = apiClient(service.url, service.auth);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
  await receiver?.close();
  await smtp?.close();
});

describe('the wallet page in Chromium', () => {
  it('is served with a strict Content-Security-Policy and no third-party anything', async () => {
    const response = await fetch(`${service.url}/wallet/?hash=x&username=y`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await response.text();
    expect(html).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>|\sstyle=|\son[a-z]+=/i);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('strategy 1, by keyboard alone: choose a PIN, confirm it, see success; the callback is signed', async () => {
    const username = 'keyboard.pin@example.com';
    const watched = await openPage(await newLink(username, [1, 2, 3]));
    const { page } = watched;
    await page.getByRole('heading', { name: 'How do you want to confirm your transactions?' }).waitFor();
    await expectFitsPhone(page);
    await shot(page, 'pin-1-choose');
    // Focus starts on the step's heading; Tab enters the radio group, Space picks, Tab reaches Continue.
    await page.keyboard.press('Tab');
    expect(await activeId(page)).toBe('strategy-1');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    expect(await activeId(page)).toBe('choose-continue');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Choose a PIN' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await activeId(page)).toBe('pin');
    await page.keyboard.type('0789');
    await page.keyboard.press('Tab');
    await page.keyboard.type('0780');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').getByText('The two PINs are not the same').waitFor();
    await shot(page, 'pin-2-mismatch');
    expect(await activeId(page)).toBe('pin-again');
    await page.keyboard.type('0789');
    await shot(page, 'pin-3-filled');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Your wallet is ready' }).waitFor();
    await expectFitsPhone(page);
    await shot(page, 'pin-4-done');
    const address = (await page.locator('#address').textContent()) as string;
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    await expectCallback(username, 1, address);
    expectOnlyOwnRequests(watched, '0789');
    const sent = await call('POST', '/core/v1/evm/wallet/custodied/transfer?strategy=1', {
      sender: address,
      recipient: service.credentials.sender,
      blockchainNetwork: 31337,
      value: 1,
      pin: '0789',
    });
    expect(sent.status).toBe(201);
    await page.close();
  });

  it('strategy 2: scan the QR code drawn by the page, type the current code', async () => {
    const username = 'authenticator@example.com';
    const watched = await openPage(await newLink(username, [2, 3]));
    const { page } = watched;
    await page.getByRole('radio', { name: /^Authenticator app/ }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Add your wallet to your authenticator app' }).waitFor();
    const qr = page.getByRole('img', { name: /QR code/ });
    await qr.waitFor();
    expect(await qr.evaluate((svg) => svg.namespaceURI)).toBe('http://www.w3.org/2000/svg');
    expect((await qr.boundingBox())?.width).toBeGreaterThan(150);
    await expectFitsPhone(page);
    await shot(page, 'totp-1-qr');
    const secret = ((await page.locator('#totp-secret').textContent()) as string).replace(/\s/g, '');
    await page
      .getByLabel('6-digit code from the app')
      .fill('000000' === codeNow(secret) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Create my wallet' }).click();
    await page.getByRole('alert').getByText('That code is not right').waitFor();
    await shot(page, 'totp-2-wrong-code');
    await page.getByLabel('6-digit code from the app').fill(codeNow(secret));
    await page.getByRole('button', { name: 'Create my wallet' }).click();
    await page.getByRole('heading', { name: 'Your wallet is ready' }).waitFor();
    await shot(page, 'totp-3-done');
    const address = (await page.locator('#address').textContent()) as string;
    await expectCallback(username, 2, address);
    expectOnlyOwnRequests(watched);
    await page.close();
  });

  it('strategy 3: receive the code by e-mail (real SMTP) and type it', async () => {
    const username = 'by.mail@example.com';
    const watched = await openPage(await newLink(username, [3]));
    const { page } = watched;
    // One strategy: it is chosen already.
    expect(await page.getByRole('radio', { name: /^Code by e-mail/ }).isChecked()).toBe(true);
    await shot(page, 'email-1-choose');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await shot(page, 'email-2-sent');
    const code = codeIn(await smtp.nextMail(username));
    await page.getByRole('button', { name: 'Send a new code' }).click();
    await page.getByRole('alert').getByText('A code was sent moments ago').waitFor();
    await page.getByLabel('Code from the e-mail').fill(code);
    await shot(page, 'email-3-filled');
    await page.getByRole('button', { name: 'Create my wallet' }).click();
    await page.getByRole('heading', { name: 'Your wallet is ready' }).waitFor();
    await expectFitsPhone(page);
    await shot(page, 'email-4-done');
    const address = (await page.locator('#address').textContent()) as string;
    await expectCallback(username, 3, address);
    expectOnlyOwnRequests(watched, code);
    await page.close();
  });

  it('Cancel sends the user to cancelUrl', async () => {
    const { page } = await openPage(await newLink('canceller@example.com', [1, 2]));
    await page.getByRole('heading', { name: 'How do you want to confirm your transactions?' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(/\/cancelled$/);
    await shot(page, 'cancel-1-shop');
    await page.close();
  });

  it('an expired, used or unknown link says so clearly, with a way back', async () => {
    const expiredLink = await newLink('expired@example.com', [1]);
    service.app.wallets.clock.advance(31 * 60 * 1000);
    const expired = await openPage(expiredLink);
    await expired.page.getByRole('heading', { name: 'This link has expired' }).waitFor();
    await shot(expired.page, 'dead-1-expired');
    await expired.page.getByRole('link', { name: 'Go back' }).click();
    await expired.page.waitForURL(/\/fallback$/);
    await expired.page.close();

    const usedLink = await newLink('used@example.com', [1]);
    const first = await openPage(usedLink);
    await first.page.getByRole('button', { name: 'Continue' }).click();
    await first.page.getByLabel('PIN', { exact: true }).fill('5555');
    await first.page.getByLabel('Type the same PIN again').fill('5555');
    await first.page.getByRole('button', { name: 'Create my wallet' }).click();
    await first.page.getByRole('heading', { name: 'Your wallet is ready' }).waitFor();
    await first.page.close();
    await receiver.next();
    const used = await openPage(usedLink);
    await used.page.getByRole('heading', { name: 'This link was already used' }).waitFor();
    expect(await used.page.getByRole('link', { name: 'Go back' }).getAttribute('href')).toMatch(
      /\/fallback$/,
    );
    await shot(used.page, 'dead-2-used');
    await used.page.close();

    const unknown = await openPage(
      `${service.url}/wallet/?hash=${'ab'.repeat(32)}&username=nobody%40example.com`,
    );
    await unknown.page.getByRole('heading', { name: 'This link is not valid' }).waitFor();
    await shot(unknown.page, 'dead-3-unknown');
    await unknown.page.close();
  });
});

function codeNow(secretBase32: string): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secretBase32),
    timestamp: service.app.wallets.clock.now(),
  });
}
