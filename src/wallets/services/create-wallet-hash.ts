import { randomUUID } from 'node:crypto';
import type { Application } from '../../applications/applications.service.ts';
import { ChaingateError, quote } from '../../platform/errors/chaingate-error.ts';
import { newWalletHash, normalizeEmail, walletHashDigest, walletPageLink } from '../wallet-hash.ts';
import { findWalletByEmail, insertWalletHash } from '../wallets.repository.ts';
import type { WalletsContext } from '../wallets-context.ts';

export type CreateWalletHashParameters = {
  application: Application;
  /** The user's e-mail address. */
  username: string;
  strategies: number[];
  callbackUrl: string;
  fallbackUrl: string;
  cancelUrl: string;
};

export type CreateWalletHashReturnType = {
  hash: string;
  /** Unix seconds. */
  expirationTime: number;
  /** The wallet page for this user: `{wallet_url}/?hash=…&username=…`. */
  walletUrl: string;
};

/** An http(s) URL, or a 400 naming the field. */
function httpUrl(value: string, field: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ChaingateError('CG_ERR_VALIDATION', `${field}: '${quote(value)}' is not a URL`, {
      context: { field },
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ChaingateError('CG_ERR_VALIDATION', `${field} must be an http or https URL`, {
      context: { field },
    });
  return value;
}

/** A single-use, time-limited hash that lets one user create a wallet for the calling application. */
export async function createWalletHash(
  context: WalletsContext,
  parameters: CreateWalletHashParameters,
): Promise<CreateWalletHashReturnType> {
  const { application } = parameters;
  const urls = {
    callbackUrl: httpUrl(parameters.callbackUrl, 'callbackUrl'),
    fallbackUrl: httpUrl(parameters.fallbackUrl, 'fallbackUrl'),
    cancelUrl: httpUrl(parameters.cancelUrl, 'cancelUrl'),
  };
  const username = normalizeEmail(parameters.username);
  if (await findWalletByEmail(context.platform.db, application.id, username)) {
    throw new ChaingateError('CG_ERR_WALLET_EXISTS', `username: ${quote(username)} already has a wallet`);
  }
  const hash = newWalletHash();
  const now = context.clock.now();
  const expiresAt = now + context.hashTtlMs;
  await insertWalletHash(context.platform.db, {
    id: randomUUID(),
    hashSha256: walletHashDigest(hash),
    applicationId: application.id,
    username,
    strategies: [...new Set(parameters.strategies)].sort((a, b) => a - b),
    ...urls,
    expiresAt: new Date(expiresAt),
    createdAt: new Date(now),
  });
  return {
    hash,
    expirationTime: Math.floor(expiresAt / 1000),
    walletUrl: walletPageLink(context.walletUrl, hash, username),
  };
}
