import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { recoverSender } from '../../src/evm/engine/chain-recovery.ts';
import { ConfirmationTracker } from '../../src/evm/engine/confirmation-tracker.ts';
import type { Database } from '../../src/platform/db/database.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { openPgliteDatabase } from '../../src/platform/db/pglite-database.ts';
import { devnetNetwork } from '../../src/platform/networks/evm-networks.ts';
import { type AnvilInstance, rpcCall, startAnvil } from '../support/anvil.ts';
import { insertTestApplication } from '../support/applications.ts';
import { storeAcceptedTransfer } from '../support/stored-transfer.ts';

// The look at a sender's nonces gives the node every stored transaction the chain lacks. It did so in one
// pass, which holds the engine's tick: after a chaos run's rewind of ~100,000 transfers, for minutes, with
// no block scanned meanwhile. A pass now gives at most 500 and says there is more; the next tick goes on.
let anvil: AnvilInstance;
let db: Database;
// anvil's third dev account: its nonces are this test's alone.
const account = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const count = 600;
// As the store keeps senders (evm_nonces, the records, storeAcceptedTransfer): lower case.
const sender = account.address.toLowerCase();

beforeAll(async () => {
  anvil = await startAnvil();
  db = await openPgliteDatabase(undefined);
  await migrate(db);
  const applicationId = await insertTestApplication(db);
  // Stored and never sent: what the engine finds after the chain forgot them all.
  for (let nonce = 0; nonce < count; nonce++)
    await storeAcceptedTransfer(db, { applicationId, account, nonce });
}, 60_000);
afterAll(async () => {
  await db?.close();
  await anvil?.stop();
});

it('gives the node at most 500 stored transactions a pass, and says when more are left', async () => {
  const network = devnetNetwork(anvil.rpcUrl);
  const context = {
    db,
    tracker: new ConfirmationTracker(db, network, async () => ''),
    logger: { warn: () => {} },
    refusedFailAfterSeconds: 180,
  };
  const nonce = async () =>
    Number(await rpcCall(anvil.rpcUrl, 'eth_getTransactionCount', [account.address, 'pending']));

  const first = await recoverSender(context, network, sender, BigInt(count));
  expect(first).toMatchObject({ rebroadcast: 500, more: true });
  expect(await nonce()).toBe(500);

  const second = await recoverSender(context, network, sender, BigInt(count));
  expect(second).toMatchObject({ rebroadcast: 100, more: false });
  expect(await nonce()).toBe(count);

  // The chain holds them all: nothing to give.
  expect(await recoverSender(context, network, sender, BigInt(count))).toMatchObject({
    rebroadcast: 0,
    more: false,
  });
});
