import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { normalizeEmail, walletHashDigest } from '../wallet-hash.ts';
import { findWalletHash, type WalletHashRow } from '../wallets.repository.ts';
import type { WalletsContext } from '../wallets-context.ts';

export type WalletHashState = 'open' | 'expired' | 'used';

export function walletHashState(row: WalletHashRow, nowMs: number): WalletHashState {
  if (row.spent_at) return 'used';
  return row.expires_at.getTime() <= nowMs ? 'expired' : 'open';
}

/**
 * The hash the page was opened with, if it exists for that username (a wrong username looks exactly
 * like an unknown hash), whatever its state.
 */
export async function findWalletHashFor(
  context: WalletsContext,
  hash: string,
  username: string,
): Promise<WalletHashRow> {
  const row = await findWalletHash(context.platform.db, walletHashDigest(hash));
  if (!row || row.username !== normalizeEmail(username))
    throw new ChaingateError('CG_ERR_UNKNOWN_HASH', 'hash: this wallet link is not valid');
  return row;
}

/** The hash, if it can still create a wallet: unknown 404, expired or used 410. */
export async function openWalletHash(
  context: WalletsContext,
  hash: string,
  username: string,
): Promise<WalletHashRow> {
  const row = await findWalletHashFor(context, hash, username);
  const state = walletHashState(row, context.clock.now());
  if (state === 'used')
    throw new ChaingateError('CG_ERR_HASH_USED', 'hash: this wallet link was already used');
  if (state === 'expired')
    throw new ChaingateError('CG_ERR_HASH_EXPIRED', 'hash: this wallet link has expired');
  return row;
}

export function ensureStrategyAllowed(row: WalletHashRow, strategy: number): void {
  if (!row.strategies.includes(strategy)) {
    throw new ChaingateError(
      'CG_ERR_STRATEGY_NOT_ALLOWED',
      `strategy: ${strategy} is not allowed for this wallet (allowed: ${row.strategies.join(', ')})`,
    );
  }
}

export type WalletHashInfo = {
  state: WalletHashState;
  username: string;
  strategies: number[];
  /** Unix seconds. */
  expirationTime: number;
  fallbackUrl: string;
  cancelUrl: string;
};

/** What the page shows before the user chooses: the allowed strategies, or why the link is dead. */
export async function describeWalletHash(
  context: WalletsContext,
  hash: string,
  username: string,
): Promise<WalletHashInfo> {
  const row = await findWalletHashFor(context, hash, username);
  return {
    state: walletHashState(row, context.clock.now()),
    username: row.username,
    strategies: row.strategies,
    expirationTime: Math.floor(row.expires_at.getTime() / 1000),
    fallbackUrl: row.fallback_url,
    cancelUrl: row.cancel_url,
  };
}
