import { randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import { createEvmKey } from '../platform/custody/evm-keys.ts';
import { ChaingateError } from '../platform/errors/chaingate-error.ts';
import { fundOnDevnets } from '../platform/networks/devnet-faucet.ts';
import type { Platform } from '../platform/platform.ts';
import { generateSecretToken, hashSecretToken, tokenHint } from './api-key.ts';
import {
  type ApplicationRow,
  findApplicationById,
  insertApplication,
  type Plan,
  updateApiKeyHash,
} from './applications.repository.ts';

export type Application = { id: string; name: string; plan: Plan };

export function toApplication(row: ApplicationRow): Application {
  return { id: row.id, name: row.name, plan: row.plan };
}

function unknownApplication(applicationId: string): ChaingateError {
  return new ChaingateError('CG_ERR_UNKNOWN_APPLICATION', `application ${applicationId} not found`, {
    context: { applicationId },
  });
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
    return createEvmKey(platform.vault, tx, { applicationId, kind: 'sender', isDefault: true });
  });
  await fundOnDevnets(platform.evm, platform.logger, sender);
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
  if (!updated) throw unknownApplication(applicationId);
  return apiKey;
}

export async function addSender(platform: Platform, applicationId: string): Promise<Address> {
  if (!(await findApplicationById(platform.db, applicationId))) {
    throw unknownApplication(applicationId);
  }
  const sender = await createEvmKey(platform.vault, platform.db, {
    applicationId,
    kind: 'sender',
    isDefault: false,
  });
  await fundOnDevnets(platform.evm, platform.logger, sender);
  return sender;
}
