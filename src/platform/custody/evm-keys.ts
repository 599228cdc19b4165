import { type Address, getAddress, type Hex } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import type { Queryable } from '../db/database.ts';
import { evmAccount } from './evm-account.ts';
import { type EvmAccountKind, type EvmAccountRow, insertEvmAccount } from './evm-accounts.repository.ts';
import type { KeyVault } from './key-vault.ts';

/**
 * Generates an EVM key, seals it with the master key (the address bound as associated data) and stores
 * it for one application. The clear key never leaves this function.
 */
export async function createEvmKey(
  vault: KeyVault,
  db: Queryable,
  input: { applicationId: string; kind: EvmAccountKind; isDefault: boolean },
): Promise<Address> {
  const privateKey = generatePrivateKey();
  const address = privateKeyToAccount(privateKey).address;
  const sealed = vault.seal(Buffer.from(privateKey.slice(2), 'hex'), address.toLowerCase());
  await insertEvmAccount(db, { address, ...input, sealed });
  return address;
}

/** Opens a stored key into a viem signer; the decrypted bytes are wiped once the signer holds them. */
export function unsealEvmAccount(vault: KeyVault, row: EvmAccountRow): PrivateKeyAccount {
  const key = vault.open(
    { keyId: row.key_id, nonce: Buffer.from(row.key_nonce), ciphertext: Buffer.from(row.key_ciphertext) },
    row.address,
  );
  const account = evmAccount(`0x${key.toString('hex')}` as Hex);
  key.fill(0);
  if (account.address !== getAddress(row.address))
    throw new Error(`stored key does not match ${row.address}`);
  return account;
}
