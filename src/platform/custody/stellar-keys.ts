import { Keypair } from '@stellar/stellar-sdk';
import type { Queryable } from '../db/database.ts';
import type { KeyVault } from './key-vault.ts';
import {
  findStellarAccount,
  insertStellarAccountIfAbsent,
  type StellarAccountRow,
} from './stellar-accounts.repository.ts';

/**
 * The application's account on a Stellar network, created on first use: a random ed25519 seed sealed
 * with the master key (the G… address bound as associated data). Two concurrent first uses create
 * one account: the second insert is ignored and both read the stored row.
 */
export async function ensureStellarKey(
  vault: KeyVault,
  db: Queryable,
  input: { applicationId: string; networkId: number },
): Promise<StellarAccountRow> {
  const existing = await findStellarAccount(db, input.applicationId, input.networkId);
  if (existing) return existing;
  const keypair = Keypair.random();
  const seed = Buffer.from(keypair.rawSecretKey());
  const sealed = vault.seal(seed, keypair.publicKey());
  seed.fill(0);
  await insertStellarAccountIfAbsent(db, { ...input, address: keypair.publicKey(), sealed });
  const stored = await findStellarAccount(db, input.applicationId, input.networkId);
  if (!stored) throw new Error(`stellar account of ${input.applicationId} was not stored`);
  return stored;
}

/** Opens a stored key to sign; the decrypted seed is wiped once the keypair holds it. */
export function unsealStellarKey(vault: KeyVault, row: StellarAccountRow): Keypair {
  const seed = vault.open(
    { keyId: row.key_id, nonce: Buffer.from(row.key_nonce), ciphertext: Buffer.from(row.key_ciphertext) },
    row.address,
  );
  // The keypair keeps a reference to the seed it is given: hand it a copy, wipe the opened one.
  const keypair = Keypair.fromRawEd25519Seed(Buffer.from(seed));
  seed.fill(0);
  if (keypair.publicKey() !== row.address) throw new Error(`stored key does not match ${row.address}`);
  return keypair;
}
