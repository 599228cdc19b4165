import type { Address } from 'viem';
import type { Queryable } from '../../platform/db/database.ts';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';
import { classifyBroadcastError } from './broadcast-errors.ts';
import { listOpenBySenderBetween, markBroadcast } from './transactions.repository.ts';

const inFlight = new Map<string, Promise<number>>();

/**
 * The node said "nonce too high": it lacks a nonce of `sender` below `nonce` (it lost its pool, or
 * it is a sequencer that refuses gapped nonces and ours arrived out of order). Sends the stored
 * signed transactions between the node's pending nonce and `nonce` again, in nonce order, stopping at
 * the first refusal. Concurrent callers for one sender share one pass. Resolves with how many the
 * node took.
 */
export function resendEarlierNonces(
  db: Queryable,
  network: EvmNetwork,
  sender: Address,
  nonce: bigint,
): Promise<number> {
  const key = `${network.chainId}:${sender.toLowerCase()}`;
  const running = inFlight.get(key);
  if (running) return running;
  const pass = (async () => {
    const pending = await network.client.getTransactionCount({ address: sender, blockTag: 'pending' });
    const rows = await listOpenBySenderBetween(
      db,
      network.chainId,
      sender.toLowerCase(),
      BigInt(pending),
      nonce,
    );
    let taken = 0;
    for (const row of rows) {
      if (!row.raw_tx) break;
      try {
        await network.client.request({ method: 'eth_sendRawTransaction', params: [row.raw_tx] });
      } catch (error) {
        if (classifyBroadcastError(error).kind !== 'accepted') break;
      }
      await markBroadcast(db, row.id, true);
      taken++;
    }
    return taken;
  })().finally(() => inFlight.delete(key));
  inFlight.set(key, pass);
  return pass;
}
