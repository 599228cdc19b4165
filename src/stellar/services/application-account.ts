import type { Application } from '../../applications/applications.service.ts';
import {
  markStellarAccountFunded,
  type StellarAccountRow,
} from '../../platform/custody/stellar-accounts.repository.ts';
import { ensureStellarKey } from '../../platform/custody/stellar-keys.ts';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';
import type { Platform } from '../../platform/platform.ts';
import { requestFriendbot } from '../network/friendbot.ts';
import { readAccount } from '../network/ledger-entries.ts';

/**
 * The application's account on `network`: created (key sealed) on first use, and funded by the
 * network's friendbot on first use where there is one. It is the source of the application's
 * deploy, invoke and TTL transactions.
 */
export async function applicationAccount(
  platform: Platform,
  application: Application,
  network: StellarNetwork,
): Promise<StellarAccountRow> {
  const row = await ensureStellarKey(platform.vault, platform.db, {
    applicationId: application.id,
    networkId: network.networkId,
  });
  if (row.funded_at || !network.friendbotUrl) return row;
  // The account may exist already (funded by a payment, or a first use whose answer was lost).
  if (!(await readAccount(network, row.address))) await requestFriendbot(network, row.address);
  await markStellarAccountFunded(platform.db, application.id, network.networkId);
  return { ...row, funded_at: new Date() };
}
