import { type Address, getAddress } from 'viem';
import type { Application } from '../../applications/applications.service.ts';
import { ChaingateError, quote } from '../../platform/errors/chaingate-error.ts';
import { normalizeEmail } from '../wallet-hash.ts';
import { findWalletByEmail, listWallets, type Strategy, type WalletRow } from '../wallets.repository.ts';
import type { WalletsContext } from '../wallets-context.ts';

/** The most wallets one page of the list holds. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export type WalletEntry = {
  id: string;
  strategy: Strategy;
  userEmail: string;
  /** The wallet's first account address (the spec's name). */
  accountHash: Address;
  accountAddress: Address;
  /** Unix milliseconds. */
  creationTimestamp: number;
};

function toEntry(row: WalletRow): WalletEntry {
  const address = getAddress(row.address);
  return {
    id: row.id,
    strategy: row.strategy,
    userEmail: row.user_email,
    accountHash: address,
    accountAddress: address,
    creationTimestamp: row.created_at.getTime(),
  };
}

/** The user's wallet in the calling application; none (or another application's) is a 404. */
export async function findUserWallet(
  context: WalletsContext,
  parameters: { application: Application; userEmail: string; field: string },
): Promise<WalletRow> {
  const wallet = await findWalletByEmail(
    context.platform.db,
    parameters.application.id,
    normalizeEmail(parameters.userEmail),
  );
  if (!wallet) {
    throw new ChaingateError(
      'CG_ERR_UNKNOWN_WALLET',
      `${parameters.field}: no custodied wallet for ${quote(parameters.userEmail)}`,
    );
  }
  return wallet;
}

export type GetWalletAddressReturnType = { accountAddress: Address; strategy: Strategy };

export async function getWalletAddress(
  context: WalletsContext,
  parameters: { application: Application; userEmail: string },
): Promise<GetWalletAddressReturnType> {
  const wallet = await findUserWallet(context, { ...parameters, field: 'userEmail' });
  return { accountAddress: getAddress(wallet.address), strategy: wallet.strategy };
}

/** One page of the calling application's wallets, oldest first; `count` above 100 gives 100. */
export async function listCustodiedWallets(
  context: WalletsContext,
  parameters: { application: Application; offset?: number | undefined; count?: number | undefined },
): Promise<WalletEntry[]> {
  const count = Math.min(parameters.count ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  if (count === 0) return [];
  const rows = await listWallets(
    context.platform.db,
    parameters.application.id,
    parameters.offset ?? 0,
    count,
  );
  return rows.map(toEntry);
}
