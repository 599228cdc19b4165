import type { Application } from '../../applications/applications.service.ts';
import {
  findStellarAccount,
  markStellarAccountFunded,
} from '../../platform/custody/stellar-accounts.repository.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { requestFriendbot } from '../network/friendbot.ts';
import { readAccount } from '../network/ledger-entries.ts';
import { stellarNetworkFor } from './resolve-network.ts';
import type { StellarContext } from './stellar-context.ts';
import { checkAccount } from './strkeys.ts';

export type FundAccountParameters = { application: Application; networkId: number; account: string };
export type FundAccountReturnType = {
  account: string;
  networkId: number;
  funded: true;
  txHash: string | null;
};

function alreadyFunded(account: string, networkId: number): ChaingateError {
  return new ChaingateError(
    'CG_ERR_STELLAR_ALREADY_FUNDED',
    `account: ${account} already exists on network ${networkId} (funded to its starting balance)`,
  );
}

/** Creates and funds a test account with the network's friendbot (testnet, futurenet, local). */
export async function fundAccount(
  context: StellarContext,
  parameters: FundAccountParameters,
): Promise<FundAccountReturnType> {
  const { platform } = context;
  checkAccount(parameters.account, 'account');
  const network = stellarNetworkFor(platform, parameters.application, parameters.networkId, 'networkId');
  if (!network.friendbotUrl) {
    throw new ChaingateError(
      'CG_ERR_STELLAR_NO_FRIENDBOT',
      `networkId: network ${network.networkId} (${network.name}) has no friendbot; an account there is funded by a payment of lumens from another account`,
    );
  }
  if (await readAccount(network, parameters.account))
    throw alreadyFunded(parameters.account, network.networkId);
  const outcome = await requestFriendbot(network, parameters.account);
  if (outcome.kind === 'alreadyFunded') throw alreadyFunded(parameters.account, network.networkId);
  const own = await findStellarAccount(platform.db, parameters.application.id, network.networkId);
  if (own?.address === parameters.account)
    await markStellarAccountFunded(platform.db, parameters.application.id, network.networkId);
  return { account: parameters.account, networkId: network.networkId, funded: true, txHash: outcome.txHash };
}
