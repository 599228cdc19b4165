import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { insertTestApplication } from '../../../test/support/applications.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { openPgliteDatabase } from '../db/pglite-database.ts';
import type { EvmAccountKind } from './evm-accounts.repository.ts';
import { createEvmKey } from './evm-keys.ts';
import { EvmSigners } from './evm-signers.ts';
import { KeyVault, type SealedSecret } from './key-vault.ts';

/** A vault that counts decryptions: each one is a key taken out of the store and opened. */
class CountingVault extends KeyVault {
  opened = 0;
  override open(sealed: SealedSecret, context: string): Buffer {
    this.opened++;
    return super.open(sealed, context);
  }
}

let db: Database;
let vault: CountingVault;
let applicationId: string;

beforeEach(async () => {
  db = await openPgliteDatabase(undefined);
  await migrate(db);
  vault = new CountingVault(randomBytes(32));
  applicationId = await insertTestApplication(db);
});
afterEach(async () => db?.close());

const newKey = (kind: EvmAccountKind) => createEvmKey(vault, db, { applicationId, kind, isDefault: false });

it('keeps a sender decrypted between sends, and a custodied wallet for none', async () => {
  const signers = new EvmSigners(db, vault);
  const sender = await newKey('sender');
  const wallet = await newKey('custodied');

  expect((await signers.forApplication(applicationId, sender)).address).toBe(sender);
  expect((await signers.forApplication(applicationId, sender)).address).toBe(sender);
  expect(vault.opened).toBe(1);

  expect((await signers.forApplication(applicationId, wallet, ['custodied'])).address).toBe(wallet);
  expect((await signers.forApplication(applicationId, wallet, ['custodied'])).address).toBe(wallet);
  expect(vault.opened).toBe(3);
});

it('keeps at most maxCachedSenders, dropping the longest kept', async () => {
  const signers = new EvmSigners(db, vault, { maxCachedSenders: 2 });
  const [first, second, third] = [await newKey('sender'), await newKey('sender'), await newKey('sender')];
  const use = (address: `0x${string}`) => signers.forApplication(applicationId, address);

  await use(first);
  await use(second);
  await use(third); // `first` goes
  expect(vault.opened).toBe(3);
  await use(second);
  await use(third);
  expect(vault.opened).toBe(3);
  await use(first);
  expect(vault.opened).toBe(4);
});
