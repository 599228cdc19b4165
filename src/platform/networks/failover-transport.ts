import { custom, type Transport } from 'viem';
import { executionFailureMessage, isNodeTransportFailure, mayHaveReachedNode } from './node-failure.ts';

type RawRequest = (call: { method: string; params?: unknown }) => Promise<unknown>;

/** How long a URL that did not answer stays behind the others, unless configured. */
export const DEFAULT_FAILOVER_COOLDOWN_MS = 30_000;

/**
 * Several RPC URLs of one network, tried in their configured order, each next one when the one before
 * fails (as viem's `fallback` does). Unlike `fallback`, a URL that failed at the transport (no answer
 * in time, connection refused) goes behind the others for `cooldownMs`: one dead URL costs one call
 * its timeout, not every call. It is still tried, last, when the others fail too. A node's answer
 * that the EVM failed (a revert, out of gas) is the call's answer and is not asked again elsewhere.
 * No background pings: viem's ranking has a ping loop that nothing stops.
 */
export function failoverTransport(transports: Transport[], options: { cooldownMs?: number } = {}): Transport {
  const cooldownMs = options.cooldownMs ?? DEFAULT_FAILOVER_COOLDOWN_MS;
  // The raw request of each transport: its `config.request`, without viem's wrapper.
  const requests = transports.map((transport) => transport({ retryCount: 0 }).config.request as RawRequest);
  const downUntil = requests.map(() => 0);

  const order = (): number[] => {
    const now = Date.now();
    const up: number[] = [];
    const down: number[] = [];
    for (let index = 0; index < requests.length; index++) {
      ((downUntil[index] as number) <= now ? up : down).push(index);
    }
    return up.concat(down);
  };

  const request = async (call: { method: string; params?: unknown }): Promise<unknown> => {
    let lastError: unknown;
    // The first failure after which a node may have the call (see `mayHaveReachedNode`): a later URL
    // that cannot be reached must not make a raw transaction look unsent.
    let uncertain: unknown;
    for (const index of order()) {
      try {
        return await (requests[index] as RawRequest)(call);
      } catch (error) {
        lastError = error;
        if (executionFailureMessage(error) !== undefined) throw error;
        if (isNodeTransportFailure(error)) {
          downUntil[index] = Date.now() + cooldownMs;
          if (uncertain === undefined && mayHaveReachedNode(error)) uncertain = error;
        }
      }
    }
    throw isNodeTransportFailure(lastError) && uncertain !== undefined ? uncertain : lastError;
  };

  // Retries are the inner transports' (one, for a closed kept-alive connection), as with one URL.
  return custom({ request }, { retryCount: 0 });
}
