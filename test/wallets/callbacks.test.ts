import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { apiClient } from '../support/api-client.ts';
import {
  type CallbackReceiver,
  type ReceivedCallback,
  signatureIsValid,
  startCallbackReceiver,
  unusedPort,
} from '../support/callback-receiver.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { createWallet } from '../support/wallets.ts';

let service: TestService;
let call: ReturnType<typeof apiClient>;
let admin: ReturnType<typeof apiClient>;
let receiver: CallbackReceiver;

// biome-ignore lint/suspicious/noExplicitAny: delivery records as the admin API answers them
type Delivery = any;

async function callbackKey(target: TestService = service): Promise<string> {
  const answer = await apiClient(target.url, { authorization: `Bearer ${target.credentials.adminToken}` })(
    'GET',
    `/admin/v1/applications/${target.credentials.applicationId}/callback-key`,
  );
  expect(answer.status).toBe(200);
  return answer.body.callbackKey;
}

/** Polls the admin list until the delivery of `walletAddress` matches `predicate`. */
async function waitForDelivery(
  target: TestService,
  walletAddress: string,
  predicate: (delivery: Delivery) => boolean,
): Promise<Delivery> {
  const client = apiClient(target.url, { authorization: `Bearer ${target.credentials.adminToken}` });
  const deadline = Date.now() + 20_000;
  for (;;) {
    const list = await client('GET', `/admin/v1/callbacks?applicationId=${target.credentials.applicationId}`);
    const delivery = list.body.find((d: Delivery) => JSON.parse(d.body).accountAddress === walletAddress);
    if (delivery && predicate(delivery)) return delivery;
    if (Date.now() > deadline) throw new Error(`delivery not as expected: ${JSON.stringify(delivery)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function expectSignedPayload(
  callback: ReceivedCallback,
  key: string,
  wallet: { address: string; hash: string },
) {
  expect(signatureIsValid(callback, key)).toBe(true);
  expect(callback.headers['content-type']).toBe('application/json');
  expect(callback.headers['x-chaingate-timestamp']).toMatch(/^\d+$/);
  expect(callback.headers['x-chaingate-delivery']).toMatch(/^[0-9a-f-]{36}$/);
  const payload = JSON.parse(callback.body);
  expect(payload).toEqual({
    hash: wallet.hash,
    username: expect.stringContaining('@'),
    accountAddress: wallet.address,
    strategy: 1,
    creationTimestamp: expect.any(Number),
  });
}

beforeAll(async () => {
  service = await startTestService();
  call = apiClient(service.url, service.auth);
  admin = apiClient(service.url, { authorization: `Bearer ${service.credentials.adminToken}` });
  receiver = await startCallbackReceiver();
});
afterAll(async () => {
  await service?.close();
  await receiver?.close();
});

describe('success callback', () => {
  it('POSTs the contract’s JSON, signed with the application’s key (HMAC-SHA256 of the raw body)', async () => {
    const wallet = await createWallet(service, call, {
      username: 'signed@example.com',
      strategy: 1,
      callbackUrl: receiver.url,
    });
    const callback = await receiver.next();
    const key = await callbackKey();
    expect(key).toMatch(/^cg_whsec_/);
    expectSignedPayload(callback, key, wallet);
    expect(signatureIsValid(callback, `${key}x`)).toBe(false);
    const delivered = await waitForDelivery(service, wallet.address, (d) => d.state === 'delivered');
    expect(delivered).toMatchObject({ lastStatus: 204, attempts: 1, url: receiver.url });
    expect(delivered.id).toBe(callback.headers['x-chaingate-delivery']);
  });

  it('reads the key through the CLI, and signs with a rotated key from then on', async () => {
    const flags = ['--url', service.url, '--admin-token', service.credentials.adminToken];
    const read = (await runCli(['app', 'callback-key', service.credentials.applicationId, ...flags])) as {
      callbackKey: string;
    };
    expect(read.callbackKey).toBe(await callbackKey());
    const rotated = (await runCli([
      'app',
      'rotate-callback-key',
      service.credentials.applicationId,
      ...flags,
    ])) as {
      callbackKey: string;
    };
    expect(rotated.callbackKey).not.toBe(read.callbackKey);
    const wallet = await createWallet(service, call, {
      username: 'rotated@example.com',
      strategy: 1,
      callbackUrl: receiver.url,
    });
    const callback = await receiver.next();
    expect(signatureIsValid(callback, rotated.callbackKey)).toBe(true);
    expect(signatureIsValid(callback, read.callbackKey)).toBe(false);
    const listed = (await runCli([
      'callbacks',
      'list',
      '--application',
      service.credentials.applicationId,
      ...flags,
    ])) as {
      body: string;
    }[];
    expect(listed.some((d) => d.body.includes(wallet.address))).toBe(true);
  });

  it('retries while the receiver is down, then delivers once it is up', async () => {
    const port = await unusedPort();
    const wallet = await createWallet(service, call, {
      username: 'down.first@example.com',
      strategy: 1,
      callbackUrl: `http://127.0.0.1:${port}/late`,
    });
    const failed = await waitForDelivery(
      service,
      wallet.address,
      (d) => d.attempts >= 1 && d.lastError !== null,
    );
    expect(failed.state).toBe('pending');
    const late = await startCallbackReceiver({ port });
    try {
      service.app.wallets.clock.advance(60 * 60 * 1000);
      const callback = await late.next();
      expectSignedPayload(callback, await callbackKey(), wallet);
      const delivered = await waitForDelivery(service, wallet.address, (d) => d.state === 'delivered');
      expect(delivered.attempts).toBeGreaterThanOrEqual(2);
    } finally {
      await late.close();
    }
  });

  it('counts a non-2xx answer as a failure', async () => {
    const refusing = await startCallbackReceiver({ status: 500 });
    try {
      const wallet = await createWallet(service, call, {
        username: 'refused@example.com',
        strategy: 1,
        callbackUrl: refusing.url,
      });
      await refusing.next();
      const failed = await waitForDelivery(service, wallet.address, (d) => d.lastStatus === 500);
      expect(failed).toMatchObject({ state: 'pending', lastError: 'answered 500' });
    } finally {
      await refusing.close();
    }
  });

  it('gives up after 24 h, and an operator can replay it', async () => {
    const port = await unusedPort();
    const wallet = await createWallet(service, call, {
      username: 'gave.up@example.com',
      strategy: 1,
      callbackUrl: `http://127.0.0.1:${port}/never`,
    });
    await waitForDelivery(service, wallet.address, (d) => d.attempts >= 1);
    service.app.wallets.clock.advance(25 * 60 * 60 * 1000);
    const failed = await waitForDelivery(service, wallet.address, (d) => d.state === 'failed');
    const late = await startCallbackReceiver({ port });
    try {
      const replay = await admin('POST', `/admin/v1/callbacks/${failed.id}/replay`);
      expect(replay.status).toBe(200);
      expect(replay.body.state).toBe('pending');
      const callback = await late.next();
      expect(callback.headers['x-chaingate-delivery']).toBe(failed.id);
      expectSignedPayload(callback, await callbackKey(), wallet);
      await waitForDelivery(service, wallet.address, (d) => d.state === 'delivered');
    } finally {
      await late.close();
    }
    expect(
      (await admin('POST', `/admin/v1/callbacks/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/replay`))
        .status,
    ).toBe(404);
    expect((await admin('POST', '/admin/v1/callbacks/not-a-uuid/replay')).status).toBe(400);
    expect((await call('GET', '/admin/v1/callbacks')).status).toBe(401);
    const filtered = await admin('GET', '/admin/v1/callbacks?state=delivered');
    expect(filtered.body.every((d: Delivery) => d.state === 'delivered')).toBe(true);
  });

  it('answers 404 for the key of an unknown application', async () => {
    const answer = await admin(
      'GET',
      '/admin/v1/applications/00000000-0000-4000-8000-000000000000/callback-key',
    );
    expect(answer.status).toBe(404);
  });
});

describe('a restart', () => {
  it('does not lose a pending callback', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'chaingate-callback-restart-'));
    const port = await unusedPort();
    let first: TestService | undefined;
    let second: TestService | undefined;
    let late: CallbackReceiver | undefined;
    try {
      first = await startTestService({ CHAINGATE_DATA_DIR: dataDir });
      const wallet = await createWallet(first, apiClient(first.url, first.auth), {
        username: 'restart@example.com',
        strategy: 1,
        callbackUrl: `http://127.0.0.1:${port}/after-restart`,
      });
      await waitForDelivery(first, wallet.address, (d) => d.attempts >= 1);
      const key = await callbackKey(first);
      await first.close();
      first = undefined;

      late = await startCallbackReceiver({ port });
      second = await startTestService({ CHAINGATE_DATA_DIR: dataDir });
      second.app.wallets.clock.advance(60 * 60 * 1000);
      const callback = await late.next();
      expectSignedPayload(callback, key, wallet);
      await waitForDelivery(second, wallet.address, (d) => d.state === 'delivered');
    } finally {
      await first?.close();
      await second?.close();
      await late?.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
