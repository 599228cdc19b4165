import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.ts';
import { startServiceOnStallingDatabase } from '../support/service.ts';
import { deployAndWait, invokeAndWait, LOCAL, savedId, waitForStellar } from './support/stellar-api.ts';
import { behaviourWasm } from './support/test-contracts.ts';

// Stellar submissions whose store stalls (PostgreSQL behind a relay that holds its answers back) after
// the envelopes were written: the request answers 200 with its hash, not a 503 that invites the client
// to send again and pay twice, and each invocation of the counter runs once.
let stack: Awaited<ReturnType<typeof startServiceOnStallingDatabase>>;
let call: ReturnType<typeof apiClient>;
let address: string;

beforeAll(async () => {
  stack = await startServiceOnStallingDatabase({ CHAINGATE_DEVNET: '0', LOG_LEVEL: 'error' });
  const { service } = stack;
  call = apiClient(service.url, service.auth);
  const id = await savedId(service.url, service.auth, await behaviourWasm(), 'behaviour');
  address = await deployAndWait(call, id);
});
afterAll(() => stack?.close());

const invokeCount = (myReference?: string) =>
  call('POST', '/stellar/v1/contract/invoke', {
    blockchainNetwork: LOCAL,
    address,
    method: 'count',
    params: [],
    restore: false,
    ...(myReference ? { myReference } : {}),
  });

describe('a Stellar submission whose store stalls', { timeout: 60_000 }, () => {
  afterEach(() => stack.relay.resume());

  // The network took the submission, and the store then failed to record that: the envelope was stored
  // before it went out, so the tracker finishes the record.
  it('answers 200 when the network took it and the store then fails to record that', async () => {
    const before = (await invokeAndWait(call, address, 'count', [])).receipt.result as number;
    stack.relay.stallAt('last_submitted_at = now()');
    const invoke = await invokeCount();
    expect(invoke.status, invoke.text).toBe(200);
    stack.relay.resume();
    const info = await waitForStellar(call, invoke.body.txHash);
    expect(info).toMatchObject({ status: 'SUCCESS', receipt: { result: before + 1 } });
    // Counted once: the tracker's resubmission of the same envelope did not run it again.
    expect((await invokeAndWait(call, address, 'count', [])).receipt.result).toBe(before + 2);
  });

  // The store carried out the COMMIT of the signed envelopes and its answer never came; it answers
  // again by the time the lane asks whether they were saved. They were, so they go out.
  it('submits a group whose COMMIT got no answer once the store says it was saved', async () => {
    const before = (await invokeAndWait(call, address, 'count', [])).receipt.result as number;
    stack.relay.stallAfter('COMMIT', 'stellarSavedAfterAll');
    // Past the COMMIT's 2 s deadline, within the 2 s the lane then gives the store to say.
    stack.relay.resumeAfter(2_700);
    const invoke = await invokeCount('stellarSavedAfterAll');
    expect(invoke.status, invoke.text).toBe(200);
    const info = await waitForStellar(call, invoke.body.txHash);
    expect(info).toMatchObject({ status: 'SUCCESS', receipt: { result: before + 1 } });
  });

  // The same COMMIT, with the store still silent at the check: the 503 says it may have been saved, and
  // the retry with the request's Idempotency-Key answers the saved submission instead of a second one.
  it('answers a retry with the same Idempotency-Key with the submission an unanswered COMMIT saved', async () => {
    const before = (await invokeAndWait(call, address, 'count', [])).receipt.result as number;
    const keyedCount = () =>
      call(
        'POST',
        '/stellar/v1/contract/invoke',
        {
          blockchainNetwork: LOCAL,
          address,
          method: 'count',
          params: [],
          restore: false,
          myReference: 'keyedStall',
        },
        { 'idempotency-key': 'stall-1' },
      );
    stack.relay.stallAfter('COMMIT', 'keyedStall');
    const unsure = await keyedCount();
    expect(unsure.status, unsure.text).toBe(503);
    expect(unsure.body.message).toContain('may have been saved');
    stack.relay.resume();
    const retry = await keyedCount();
    expect(retry.status, retry.text).toBe(200);
    const stored = (await call('GET', '/stellar/v1/transaction/reference/keyedStall')).body.info;
    expect(stored).toEqual([expect.objectContaining({ txHash: retry.body.txHash })]);
    const info = await waitForStellar(call, retry.body.txHash);
    expect(info).toMatchObject({ status: 'SUCCESS', receipt: { result: before + 1 } });
  });
});
