import type { Application } from '../../applications/applications.service.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { readAccount } from '../network/ledger-entries.ts';
import { applicationAccount } from './application-account.ts';
import { stellarNetworkFor } from './resolve-network.ts';
import { lumens } from './simulate-operation.ts';
import type { StellarContext } from './stellar-context.ts';
import { checkAccount } from './strkeys.ts';

export type AccountBalanceParameters = { application: Application; networkId: number; account: string };
export type AccountBalanceReturnType = {
  account: string;
  networkId: number;
  balance: number;
  balanceStroops: string;
};

/** The account's native balance, in lumens (and in stroops, exactly). */
export async function accountBalance(
  context: StellarContext,
  parameters: AccountBalanceParameters,
): Promise<AccountBalanceReturnType> {
  checkAccount(parameters.account, 'account');
  const network = stellarNetworkFor(
    context.platform,
    parameters.application,
    parameters.networkId,
    'networkId',
  );
  const entry = await readAccount(network, parameters.account);
  if (!entry) {
    throw new ChaingateError(
      'CG_ERR_STELLAR_UNKNOWN_ACCOUNT',
      `account: ${parameters.account} does not exist on network ${network.networkId} (fund it first)`,
    );
  }
  return {
    account: parameters.account,
    networkId: network.networkId,
    balance: lumens(entry.balanceStroops),
    balanceStroops: entry.balanceStroops.toString(),
  };
}

export type ApplicationAccountInfoReturnType = {
  account: string;
  networkId: number;
  funded: boolean;
  balance: number | null;
  balanceStroops: string | null;
};

/** The application's own account on a network (created and, with a friendbot, funded on first use). */
export async function applicationAccountInfo(
  context: StellarContext,
  parameters: { application: Application; networkId: number },
): Promise<ApplicationAccountInfoReturnType> {
  const network = stellarNetworkFor(
    context.platform,
    parameters.application,
    parameters.networkId,
    'networkId',
  );
  const row = await applicationAccount(context.platform, parameters.application, network);
  const entry = await readAccount(network, row.address);
  return {
    account: row.address,
    networkId: network.networkId,
    funded: entry !== undefined,
    balance: entry ? lumens(entry.balanceStroops) : null,
    balanceStroops: entry ? entry.balanceStroops.toString() : null,
  };
}
