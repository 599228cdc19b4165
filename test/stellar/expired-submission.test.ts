import { afterAll, beforeAll, expect, it } from 'vitest';
import { type SorobanSandbox, startSorobanSandbox } from '../../src/stellar/sandbox/index.ts';
import type { apiClient } from '../support/api-client.ts';
import type { TestService } from '../support/service.ts';
import {
  whileClosing as closingLedgers,
  relayedNetwork,
  startServiceWithNetworks,
} from './support/configured-networks.ts';
import { type RpcRelay, startRpcRelay } from './support/rpc-relay.ts';
import { savedId, waitForStellar } from './support/stellar-api.ts';
import { behaviourWasm } from './support/test-contracts.ts';

// A network of its own, since this test moves its clock forward for good: a sandbox the test closes
// ledgers on, behind a relay that can hold submissions.
const NETWORK = 7780;

let sandbox: SorobanSandbox;
let relay: RpcRelay;
let service: TestService;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  sandbox = await startSorobanSandbox({ ledgerCloseMs: 0 });
  relay = await startRpcRelay(sandbox.rpcUrl);
  ({ service, call } = await startServiceWithNetworks([relayedNetwork(NETWORK, relay, sandbox)]));
});
afterAll(async () => {
  await service?.close();
  await relay?.stop();
  await sandbox?.stop();
});

const whileClosing = <T>(work: Promise<T>) => closingLedgers(sandbox, work);

const invoke = (address: string, myReference: string) =>
  call('POST', '/stellar/v1/contract/invoke', {
    blockchainNetwork: NETWORK,
    address,
    method: 'count',
    params: [],
    restore: false,
    myReference,
  });

it('fails a kept submission that never reached the network once its envelope expired, and the retry lands once', {
  timeout: 60_000,
}, async () => {
  const id = await savedId(service.url, service.auth, await behaviourWasm(), 'behaviour');
  const deploy = await whileClosing(
    call('POST', '/stellar/v1/contract/deployment', { contractSpecsId: id, blockchainNetwork: NETWORK }),
  );
  expect(deploy.status, deploy.text).toBe(201);
  expect((await whileClosing(waitForStellar(call, deploy.body.txHash, NETWORK))).status).toBe('SUCCESS');
  const address = deploy.body.address as string;

  relay.holdSends(true);
  const kept = await invoke(address, 'kept');
  expect(kept.status, kept.text).toBe(200);
  // The tracker submits it again 5 s after the unanswered try (6 s after signing), and the relay holds
  // that too. From then on, with the network's clock 595 s ahead, the envelope's 10 minutes have
  // passed, while one signed now stays valid for 5 s more: ample for the retry below.
  while (relay.held() < 2) await new Promise((resolve) => setTimeout(resolve, 100));
  sandbox.advanceClock(595);
  await relay.release(false);
  relay.holdSends(false);
  const expired = await whileClosing(waitForStellar(call, kept.body.txHash, NETWORK));
  expect(expired).toMatchObject({ status: 'FAILED', errorInfo: { code: 'txTooLate' } });

  // Sending again is now safe: the retry lands, and the counter moved once.
  const retry = await invoke(address, 'retry');
  expect(retry.status, retry.text).toBe(200);
  const landed = await whileClosing(waitForStellar(call, retry.body.txHash, NETWORK));
  expect(landed).toMatchObject({ status: 'SUCCESS' });
  expect(landed.receipt.result).toBe(1);
});
