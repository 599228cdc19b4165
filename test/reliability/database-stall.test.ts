import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, deployErc20, transferToken, waitForFinalStatus } from '../support/api-client.ts';
import { startServiceOnStallingDatabase, type TestService } from '../support/service.ts';
import type { StallingRelay } from '../support/stalling-relay.ts';

// A PostgreSQL server that takes statements and answers nothing (a hung disk, a lock held by a stuck
// session) held every request that reached it, for as long as it stalled. Each statement has a deadline
// now, and once the server answers again the service goes on where it was, with no nonce skipped or
// used twice. The service reaches its server through a relay that can hold the server's answers back.
let stack: Awaited<ReturnType<typeof startServiceOnStallingDatabase>>;
let relay: StallingRelay;
let service: TestService;
let call: ReturnType<typeof apiClient>;
let token: string;

beforeAll(async () => {
  stack = await startServiceOnStallingDatabase({ CHAINGATE_SOROBAN: '0' });
  ({ relay, service } = stack);
  call = apiClient(service.url, service.auth);
  token = await deployErc20(call, service.credentials.sender, ['Stall', 'STL', 1000]);
});
afterAll(() => stack?.close());

const transfer = (extra: Record<string, unknown> = {}) =>
  transferToken(
    call,
    { token, sender: service.credentials.sender, recipient: '0x000000000000000000000000000000000000dEaD' },
    extra,
  );

/** A transfer sent with an `Idempotency-Key`. */
const keyedTransfer = (key: string, extra: Record<string, unknown>) =>
  transferToken(
    (method, path, body, headers = {}) => call(method, path, body, { ...headers, 'idempotency-key': key }),
    { token, sender: service.credentials.sender, recipient: '0x000000000000000000000000000000000000dEaD' },
    extra,
  );

/** A transfer that must be accepted: its nonce. */
async function acceptedNonce(): Promise<number> {
  const sent = await transfer();
  expect(sent.status, sent.text).toBe(201);
  return sent.body.nonce;
}

describe('a PostgreSQL server that stalls', { timeout: 60_000 }, () => {
  // A case that failed half-way must not leave the next one a stalled server.
  afterEach(() => relay.resume());

  it('answers 503 with the reason, and sends on without a gap once the server answers', async () => {
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
  });

  // The one case a 503 cannot say "not stored": the server carried out the send's COMMIT and its answer
  // never came. The service asks the store whether the send was saved; while the store stays silent,
  // the message says it may have been, and the stored send goes out under its nonce.
  it('says that a send may have been saved when its COMMIT got no answer, and it goes out', async () => {
    const before = await acceptedNonce();
    relay.stallAfter('COMMIT', 'unconfirmedCommit');
    const unsure = await transfer({ myReference: 'unconfirmedCommit' });
    expect(unsure.status).toBe(503);
    expect(unsure.body).toMatchObject({
      code: 'CG_ERR_DEPENDENCY',
      message:
        'the database did not answer within 2 s when asked to commit, so the request may have been saved. A send or submission retried with the same Idempotency-Key header is answered with it if it was, and runs if it was not',
    });
    relay.resume();
    const stored = await call('GET', '/core/v1/evm/info/transaction/reference/unconfirmedCommit');
    expect(stored.body.info).toEqual([expect.objectContaining({ nonce: before + 1 })]);
    expect((await waitForFinalStatus(call, stored.body.info[0].txHash)).status).toBe('confirmed');
    expect(await acceptedNonce()).toBe(before + 2);
  });

  // The same, but the store answers again by the time the service asks whether the send was saved: it
  // was, so the send goes on as any other and answers 201.
  it('answers 201 for a send whose COMMIT got no answer once the store says it was saved', async () => {
    const before = await acceptedNonce();
    relay.stallAfter('COMMIT', 'savedAfterAll');
    // Past the COMMIT's 2 s deadline, within the 2 s the service then gives the store to say.
    relay.resumeAfter(2_700);
    const sent = await transfer({ myReference: 'savedAfterAll' });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body.nonce).toBe(before + 1);
    expect((await waitForFinalStatus(call, sent.body.txHash)).status).toBe('confirmed');
    const stored = await call('GET', '/core/v1/evm/info/transaction/reference/savedAfterAll');
    expect(stored.body.info).toEqual([expect.objectContaining({ txHash: sent.body.txHash })]);
    expect(await acceptedNonce()).toBe(before + 2);
  });

  // With an idempotency key the unsure 503 has a safe retry: the same request again answers the send
  // that was saved (201, its hash and nonce) and sends nothing more.
  it('answers a retry with the same Idempotency-Key with the send its unanswered COMMIT saved', async () => {
    const before = await acceptedNonce();
    relay.stallAfter('COMMIT', 'keyedCommit');
    const unsure = await keyedTransfer('commit-1', { myReference: 'keyedCommit' });
    expect(unsure.status).toBe(503);
    relay.resume();
    const retry = await keyedTransfer('commit-1', { myReference: 'keyedCommit' });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.body.nonce).toBe(before + 1);
    const stored = await call('GET', '/core/v1/evm/info/transaction/reference/keyedCommit');
    expect(stored.body.info).toEqual([expect.objectContaining({ txHash: retry.body.txHash })]);
    expect((await waitForFinalStatus(call, retry.body.txHash)).status).toBe('confirmed');
    expect(await acceptedNonce()).toBe(before + 2);
  });

  // The same 503, when the COMMIT never reached the server: nothing was saved, and the retry sends.
  it('sends a retry with the same Idempotency-Key when the unanswered COMMIT saved nothing', async () => {
    const before = await acceptedNonce();
    relay.stallAt('COMMIT');
    const unsure = await keyedTransfer('commit-2', { myReference: 'keyedLost' });
    expect(unsure.status).toBe(503);
    relay.resume();
    const retry = await keyedTransfer('commit-2', { myReference: 'keyedLost' });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.body.nonce).toBe(before + 1);
    const stored = await call('GET', '/core/v1/evm/info/transaction/reference/keyedLost');
    expect(stored.body.info).toEqual([expect.objectContaining({ txHash: retry.body.txHash })]);
    expect((await waitForFinalStatus(call, retry.body.txHash)).status).toBe('confirmed');
  });

  // The node took the send and the store then failed to record that: the send was stored before it went
  // out, so it is answered 201 (an error would invite the client to pay twice) and the engine finishes it.
  it('answers 201 for a send the node took when the store then fails to record it', async () => {
    const before = await acceptedNonce();
    relay.stallAt('last_broadcast_at');
    const unrecorded = await transfer();
    expect(unrecorded.status, unrecorded.text).toBe(201);
    expect(unrecorded.body.nonce).toBe(before + 1);
    relay.resume();
    expect((await waitForFinalStatus(call, unrecorded.body.txHash)).status).toBe('confirmed');
    expect(await acceptedNonce()).toBe(before + 2);
  });
});
