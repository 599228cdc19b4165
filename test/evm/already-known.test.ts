import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfirmationTracker } from '../../src/evm/engine/confirmation-tracker.ts';
import { rebroadcast } from '../../src/evm/engine/rebroadcast.ts';
import type { TransactionRow } from '../../src/evm/engine/transaction-record.ts';
import { findApplicationTransactionByHash } from '../../src/evm/engine/transactions.repository.ts';
import type { EvmNetwork } from '../../src/platform/networks/evm-networks.ts';
import { apiClient, deployErc20, transferToken } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';

// The engine re-prices a transaction the node has not mined some time after it was given to the node.
// Giving the node bytes it already holds ("already known") must not restart that time: a node that
// holds a transaction and never mines it (anvil's pool has done so under load) would be given the same
// bytes every few seconds and never re-priced.
let service: TestService;
let call: ReturnType<typeof apiClient>;
let token: string;

beforeAll(async () => {
  service = await startTestService({ CHAINGATE_SOROBAN: '0' });
  call = apiClient(service.url, service.auth);
  token = await deployErc20(call, service.credentials.sender, ['Known', 'KNW', 1000]);
});
afterAll(async () => service?.close());

describe('bytes the node already holds, given again', () => {
  it('leave the time since the transaction was given to the node as it was', async () => {
    const { db, evm, logger } = service.platform;
    const network = evm.get(31337) as EvmNetwork;
    const client = network.client;
    await client.request({ method: 'evm_setIntervalMining' as never, params: [0] as never });
    try {
      const sent = await transferToken(call, { token, sender: service.credentials.sender, recipient: token });
      expect(sent.status, sent.text).toBe(201);
      const row = async () =>
        (await findApplicationTransactionByHash(
          db,
          service.credentials.applicationId,
          31337,
          sent.body.txHash,
        )) as TransactionRow;
      const before = await row();
      expect(before.state).toBe('inserted');
      const tracker = new ConfirmationTracker(db, network, async () => '');
      const outcome = await rebroadcast(
        { db, tracker, logger, refusedFailAfterSeconds: 180 },
        network,
        before,
      );
      expect(outcome.kind).toBe('accepted');
      const after = await row();
      expect(after.last_broadcast_at).toEqual(before.last_broadcast_at);
      expect(after.broadcast_count).toBe(before.broadcast_count);
    } finally {
      await client.request({ method: 'evm_setIntervalMining' as never, params: [1] as never });
    }
  });
});
