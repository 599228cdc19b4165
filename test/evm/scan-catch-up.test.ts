import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConfirmationTracker } from '../../src/evm/engine/confirmation-tracker.ts';
import { findTransactionsByIds } from '../../src/evm/engine/mined-records.repository.ts';
import type { Database } from '../../src/platform/db/database.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { openPgliteDatabase } from '../../src/platform/db/pglite-database.ts';
import { devnetNetwork } from '../../src/platform/networks/evm-networks.ts';
import { type AnvilInstance, rpcCall, startAnvil } from '../support/anvil.ts';
import { insertTestApplication } from '../support/applications.ts';
import { storeAcceptedTransfer } from '../support/stored-transfer.ts';

// A tracker more than a hundred blocks behind (its ticks held for minutes by a long pass of re-sends)
// jumped to the last hundred blocks: a record mined in the blocks it jumped over was left to the
// one-by-one receipt checks. It now reads on from where it stopped.
let anvil: AnvilInstance;
let db: Database;
let applicationId: string;
// anvil's second dev account (the first funds nothing here, but keep clear of other tests' habits).
const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');

beforeAll(async () => {
  anvil = await startAnvil();
  db = await openPgliteDatabase(undefined);
  await migrate(db);
  applicationId = await insertTestApplication(db);
});
afterAll(async () => {
  await db?.close();
  await anvil?.stop();
});

it('reads the blocks it fell behind on, a hundred a scan, instead of jumping to the last hundred', async () => {
  const network = devnetNetwork(anvil.rpcUrl);
  const tracker = new ConfirmationTracker(db, network, async () => '');
  const blockNumber = async () => BigInt((await rpcCall(anvil.rpcUrl, 'eth_blockNumber')) as string);
  // The tracker's last scan: nothing open, so it notes the head and reads nothing.
  await tracker.scanNewBlocks(await blockNumber());

  const nonce = Number(await rpcCall(anvil.rpcUrl, 'eth_getTransactionCount', [account.address, 'latest']));
  const { id, txHash, rawTx } = await storeAcceptedTransfer(db, { applicationId, account, nonce });
  // Mined (anvil mines each transaction at once), then 150 empty blocks the tracker did not read.
  await rpcCall(anvil.rpcUrl, 'eth_sendRawTransaction', [rawTx]);
  await rpcCall(anvil.rpcUrl, 'anvil_mine', ['0x96']);
  const head = await blockNumber();

  await tracker.scanNewBlocks(head);
  const [row] = await findTransactionsByIds(db, [id]);
  expect(row?.state).toBe('confirmed');
  expect(row?.tx_hash).toBe(txHash);
});
