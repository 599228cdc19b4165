import { expect, inject, it } from 'vitest';
import { apiClient, deployErc20, waitForFinalStatus } from '../support/api-client.ts';
import { createDatabase } from '../support/postgres-server.ts';
import { startTestService } from '../support/service.ts';
import { startStallingRelay } from '../support/stalling-relay.ts';

// A PostgreSQL server that takes statements and answers nothing (a hung disk, a lock held by a stuck
// session) held every request that reached it, for as long as it stalled. Each statement has a deadline
// now: the request answers 503 with the reason, the statement's transaction is rolled back, and once
// the server answers again the service goes on where it was, with no nonce skipped or used twice.
it('answers 503 while its PostgreSQL server stalls, and goes on without a gap once it answers', {
  timeout: 120_000,
}, async () => {
  const url = new URL(await createDatabase(inject('postgresUrl')));
  const relay = await startStallingRelay({ host: url.hostname, port: Number(url.port) });
  url.hostname = '127.0.0.1';
  url.port = String(relay.port);
  const service = await startTestService({
    DATABASE_URL: url.toString(),
    CHAINGATE_DATABASE_TIMEOUT_SECONDS: '2',
    CHAINGATE_SOROBAN: '0',
  });
  try {
    const call = apiClient(service.url, service.auth);
    const sender = service.credentials.sender;
    const token = await deployErc20(call, sender, ['Stall', 'STL', 1000]);
    const transfer = (extra: Record<string, unknown> = {}) =>
      call('POST', '/core/v1/evm/transact/mutable', {
        contractAddress: token,
        sender,
        blockchainNetwork: 31337,
        method: 'transfer',
        params: ['0x000000000000000000000000000000000000dEaD', 1],
        ...extra,
      });
    const before = await transfer();
    expect(before.status).toBe(201);

    relay.stall();
    for (const answer of [
      await transfer(),
      await call('GET', `/core/v1/evm/info/transaction/${before.body.txHash}/status?network=31337`),
      await call('GET', '/core/v1/evm/info/specs'),
    ]) {
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({
        code: 'CG_ERR_DEPENDENCY',
        message: 'the database did not answer within 2 s',
      });
    }
    // The tracker's own reads failed meanwhile too; it keeps going once the server answers.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    relay.resume();

    const after = await transfer();
    expect(after.status).toBe(201);
    expect(after.body.nonce).toBe(before.body.nonce + 1);
    expect((await waitForFinalStatus(call, before.body.txHash)).status).toBe('confirmed');
    expect((await waitForFinalStatus(call, after.body.txHash)).status).toBe('confirmed');

    // The one case a 503 cannot say "not stored": the server carried out the send's COMMIT and its
    // answer never came. The message says so, and the stored send goes out under its nonce.
    relay.stallAfter('COMMIT', 'unconfirmedCommit');
    const unsure = await transfer({ myReference: 'unconfirmedCommit' });
    expect(unsure.status).toBe(503);
    expect(unsure.body).toMatchObject({
      code: 'CG_ERR_DEPENDENCY',
      message:
        'the database did not answer within 2 s when asked to commit, so the request may have been saved',
    });
    relay.resume();
    const stored = await call('GET', '/core/v1/evm/info/transaction/reference/unconfirmedCommit');
    expect(stored.body.info).toEqual([expect.objectContaining({ nonce: after.body.nonce + 1 })]);
    expect((await waitForFinalStatus(call, stored.body.info[0].txHash)).status).toBe('confirmed');
    const last = await transfer();
    expect(last.status).toBe(201);
    expect(last.body.nonce).toBe(after.body.nonce + 2);
  } finally {
    relay.resume();
    await service.close();
    await relay.close();
  }
});
