import { randomUUID } from 'node:crypto';
import { type Address, getAddress, type Hex } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { fundFromFaucet } from '../platform/chains/devnet-faucet.ts';
import type { Queryable } from '../platform/db/database.ts';
import { NotFoundError } from '../platform/http/gateway-error.ts';
import type { Platform } from '../platform/platform.ts';
import { generateSecretToken, hashSecretToken, tokenHint } from './api-key.ts';
import {
  type ApplicationRow,
  findApplicationById,
  insertApplication,
  type Plan,
  updateApiKeyHash,
} from './applications.repository.ts';
import { type EvmAccountKind, type EvmAccountRow, insertEvmAccount } from './evm-accounts.repository.ts';

export type Application = { id: string; name: string; plan: Plan };

export function toApplication(row: ApplicationRow): Application {
  return { id: row.id, name: row.name, plan: row.plan };
}

/**
 * Generates a key, seals it with the master key and stores it for the application. The clear key
 * never leaves this function.
 */
export async function createEvmAccount(
  platform: Pick<Platform, 'vault'>,
  db: Queryable,
  input: { applicationId: string; kind: EvmAccountKind; isDefault: boolean },
): Promise<Address> {
  const privateKey = generatePrivateKey();
  const address = privateKeyToAccount(privateKey).address;
  const sealed = platform.vault.seal(Buffer.from(privateKey.slice(2), 'hex'), address.toLowerCase());
  await insertEvmAccount(db, {
    address,
    applicationId: input.applicationId,
    kind: input.kind,
    isDefault: input.isDefault,
    sealed,
  });
  return address;
}

/** Funds a new account on every network whose faucet the service can drive; failures are logged only. */
export async function fundNewAccount(
  platform: Pick<Platform, 'evm' | 'logger'>,
  address: Address,
): Promise<void> {
  for (const network of platform.evm.all()) {
    if (!network.hasDevnetFaucet) continue;
    try {
      await fundFromFaucet(network, address);
    } catch (error) {
      platform.logger.warn(
        { chainId: network.chainId, address, err: (error as Error).message },
        'faucet funding failed',
      );
    }
  }
}

export type CreatedApplication = { applicationId: string; apiKey: string; sender: Address };

export async function createApplication(
  platform: Platform,
  input: { name: string; plan: Plan },
): Promise<CreatedApplication> {
  const applicationId = randomUUID();
  const apiKey = generateSecretToken('cg_key');
  const sender = await platform.db.transaction(async (tx) => {
    await insertApplication(tx, {
      id: applicationId,
      name: input.name,
      plan: input.plan,
      apiKeyHash: hashSecretToken(apiKey),
      apiKeyHint: tokenHint(apiKey),
    });
    return createEvmAccount(platform, tx, { applicationId, kind: 'sender', isDefault: true });
  });
  await fundNewAccount(platform, sender);
  return { applicationId, apiKey, sender };
}

export async function rotateApiKey(platform: Platform, applicationId: string): Promise<string> {
  const apiKey = generateSecretToken('cg_key');
  const updated = await updateApiKeyHash(
    platform.db,
    applicationId,
    hashSecretToken(apiKey),
    tokenHint(apiKey),
  );
  if (!updated)
    throw new NotFoundError(`application ${applicationId} not found`, 'CG_ERR_UNKNOWN_APPLICATION');
  return apiKey;
}

export async function addSender(platform: Platform, applicationId: string): Promise<Address> {
  if (!(await findApplicationById(platform.db, applicationId))) {
    throw new NotFoundError(`application ${applicationId} not found`, 'CG_ERR_UNKNOWN_APPLICATION');
  }
  const sender = await createEvmAccount(platform, platform.db, {
    applicationId,
    kind: 'sender',
    isDefault: false,
  });
  await fundNewAccount(platform, sender);
  return sender;
}

/** Decrypts a stored account into a viem signer. */
export function unsealAccount(platform: Pick<Platform, 'vault'>, row: EvmAccountRow): PrivateKeyAccount {
  const key = platform.vault.open(
    { keyId: row.key_id, nonce: Buffer.from(row.key_nonce), ciphertext: Buffer.from(row.key_ciphertext) },
    row.address,
  );
  const account = privateKeyToAccount(`0x${key.toString('hex')}` as Hex);
  key.fill(0);
  if (account.address !== getAddress(row.address))
    throw new Error(`stored key does not match ${row.address}`);
  return account;
}
