import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { apiClient, waitForFinalStatus } from '../support/api-client.ts';
import {
  type CallbackReceiver,
  signatureIsValid,
  startCallbackReceiver,
} from '../support/callback-receiver.ts';
import { createDatabase } from '../support/postgres-server.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { codeIn, type SmtpSink, startSmtpSink } from '../support/smtp-sink.ts';
import { createWallet, totpCode } from '../support/wallets.ts';

let service: TestService;
let smtp: SmtpSink;
let receiver: CallbackReceiver;

beforeAll(async () => {
  smtp = await startSmtpSink();
  receiver = await startCallbackReceiver();
  service = await startTestService({
    DATABASE_URL: await createDatabase(inject('postgresUrl')),
    CHAINGATE_SMTP_URL: smtp.url,
    CHAINGATE_SOROBAN: '0',
  });
});
afterAll(async () => {
  await service?.close();
  await receiver?.close();
  await smtp?.close();
});

it('runs the wallet flow on a PostgreSQL server: create, callback, list, TOTP and e-mail sends', async () => {
  const call = apiClient(service.url, service.auth);
  const totp = await createWallet(service, call, {
    username: 'pg.totp@example.com',
    strategy: 2,
    callbackUrl: receiver.url,
  });
  const callback = await receiver.next();
  const key = (
    await apiClient(service.url, { authorization: `Bearer ${service.credentials.adminToken}` })(
      'GET',
      `/admin/v1/applications/${service.credentials.applicationId}/callback-key`,
    )
  ).body.callbackKey;
  expect(signatureIsValid(callback, key)).toBe(true);
  expect(JSON.parse(callback.body)).toMatchObject({ accountAddress: totp.address, strategy: 2 });

  const list = await call('GET', '/cwll/v1/evm/wallet/custodied/list');
  expect(list.body.map((w: { accountAddress: string }) => w.accountAddress)).toContain(totp.address);

  const transfer = (sender: string, strategy: number, pin: string) =>
    call('POST', `/core/v1/evm/wallet/custodied/transfer?strategy=${strategy}`, {
      sender,
      recipient: service.credentials.sender,
      blockchainNetwork: 31337,
      value: 1,
      pin,
    });
  const next = totpCode(service, totp.totpSecret as string, 1);
  const sent = await transfer(totp.address, 2, next);
  expect(sent.status).toBe(201);
  expect((await waitForFinalStatus(call, sent.body.txHash)).status).toBe('confirmed');
  expect((await transfer(totp.address, 2, next)).status).toBe(401);

  const mail = await createWallet(service, call, { username: 'pg.mail@example.com', strategy: 3, smtp });
  expect((await call('POST', '/cwll/v1/2fa/signature/otp/new?email=pg.mail%40example.com')).status).toBe(201);
  const code = codeIn(await smtp.nextMail('pg.mail@example.com'));
  expect((await transfer(mail.address, 3, code)).status).toBe(201);
  expect((await transfer(mail.address, 3, code)).status).toBe(401);
});
