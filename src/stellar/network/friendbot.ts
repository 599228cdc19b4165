import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';
import { transportReason, unreachable } from './rpc-call.ts';

export type FriendbotOutcome = { kind: 'funded'; txHash: string | null } | { kind: 'alreadyFunded' };

/** The friendbot's answer says the account exists already (Horizon's problem document, or a bare text). */
function saysAlreadyFunded(text: string): boolean {
  return /already.?exist|op_already_exists|createAccountAlreadyExist/i.test(text);
}

/**
 * Asks the network's friendbot to create and fund `address` (`GET <friendbot>?addr=…`, as the SDK's
 * `requestAirdrop`). Bounded by the network's timeout; no friendbot is a 400.
 */
export async function requestFriendbot(network: StellarNetwork, address: string): Promise<FriendbotOutcome> {
  if (!network.friendbotUrl) {
    throw new ChaingateError(
      'CG_ERR_STELLAR_NO_FRIENDBOT',
      `networkId: network ${network.networkId} (${network.name}) has no friendbot: fund ${address} with a payment of lumens`,
    );
  }
  const url = new URL(network.friendbotUrl);
  url.searchParams.set('addr', address);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(network.timeoutMs) });
    text = await response.text();
  } catch (error) {
    throw unreachable(
      network,
      'friendbot',
      transportReason(error, network.timeoutMs) ?? `failed (${(error as Error).message})`,
    );
  }
  if (response.ok) {
    let txHash: string | null = null;
    try {
      const body = JSON.parse(text) as { hash?: unknown; id?: unknown };
      txHash = typeof body.hash === 'string' ? body.hash : typeof body.id === 'string' ? body.id : null;
    } catch {
      // A friendbot that answers 200 with no JSON still funded the account.
    }
    return { kind: 'funded', txHash };
  }
  if (response.status === 400 && saysAlreadyFunded(text)) return { kind: 'alreadyFunded' };
  throw unreachable(network, 'friendbot', `answered HTTP ${response.status}`);
}
