import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.ts';
import { startServiceOnStallingDatabase } from '../support/service.ts';
import { deployAndWait, invokeAndWait, LOCAL, savedId, waitForStellar } from './support/stellar-api.ts';
import { behaviourWasm } from './support/test-contracts.ts';

// The network took a submission, and the store then failed to record that (its server stalled): the
// envelope was stored before it went out, so the request answers 200 with its hash, not a 503 that
// invites the client to send again and pay twice, and the tracker finishes the record.
let stack: Awaited<ReturnType<typeof startServiceOnStallingDatabase>>;

beforeAll(async () => {
  stack = await startServiceOnStallingDatabase({ CHAINGATE_DEVNET: '0', LOG_LEVEL: 'error' });
});
afterAll(() => stack?.close());

it('answers 200 for a submission the network took when the store then fails to record it', {
  timeout: 90_000,
}, async () => {
  const { service, relay } = stack;
  const call = apiClient(service.url, service.auth);
  const id = await savedId(service.url, service.auth, await behaviourWasm(), 'behaviour');
  const address = await deployAndWait(call, id);
  expect((await invokeAndWait(call, address, 'count', [])).receipt.result).toBe(1);

  relay.stallAt('last_submitted_at = now()');
  const invoke = await call('POST', '/stellar/v1/contract/invoke', {
    blockchainNetwork: LOCAL,
    address,
    method: 'count',
    params: [],
    restore: false,
  });
  expect(invoke.status, invoke.text).toBe(200);
  relay.resume();
  const info = await waitForStellar(call, invoke.body.txHash);
  expect(info).toMatchObject({ status: 'SUCCESS', receipt: { result: 2 } });
  // Counted once: the tracker's resubmission of the same envelope did not run it again.
  expect((await invokeAndWait(call, address, 'count', [])).receipt.result).toBe(3);
});
