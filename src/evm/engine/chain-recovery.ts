import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';
import { addMissingGaps, listLiveFromNonce, reopenMinedFromNonce } from './chain-recovery.repository.ts';
import { type RebroadcastContext, rebroadcast } from './rebroadcast.ts';
import { failLongRefused } from './refused-resends.repository.ts';

export type SenderRecovery = {
  reopened: number;
  rebroadcast: number;
  failed: number;
  gaps: number;
  /** Stored transactions past this pass's bound remain to be given again: the next tick goes on. */
  more: boolean;
};

/**
 * Stored transactions one pass gives the node again at most. The pass holds the engine's tick (no block
 * is scanned meanwhile): after a rewind of ~100,000 transfers one pass took minutes, and the records it
 * had re-sent, mined meanwhile, waited for it.
 */
const RESENDS_PER_PASS = 500;

/**
 * Reconciles one sender's stored transactions with a chain that may have lost blocks (a deep reorg, a
 * node restored from a snapshot, the devnet restarted from an older state). The chain's nonce says
 * exactly what it still has: every record from that nonce on is not mined there (and its pending nonce
 * what its pool holds). Records marked mined
 * go back to `processing`; everything live from that nonce on is given to the node again from its
 * stored raw bytes, in nonce order, so hashes and contract addresses stay the same; nonces nobody holds
 * go to the gaps, which the engine fills. A record the node has kept refusing (in words that name no
 * passing cause) for `refusedFailAfterSeconds` ends `error` (ERROR_CHAIN_LOST) and its nonce is filled, so
 * the ones after it still go through; refused for less long, it is given again on the next pass.
 */
export async function recoverSender(
  context: RebroadcastContext,
  network: EvmNetwork,
  sender: string,
  storeNextNonce: bigint,
): Promise<SenderRecovery> {
  const result: SenderRecovery = { reopened: 0, rebroadcast: 0, failed: 0, gaps: 0, more: false };
  const address = sender as `0x${string}`;
  const [chainNonce, poolNonce] = await Promise.all([
    network.client.getTransactionCount({ address, blockTag: 'latest' }),
    network.client.getTransactionCount({ address, blockTag: 'pending' }),
  ]);
  // The chain and its pool hold every nonce the store handed out: nothing is missing.
  if (BigInt(chainNonce) >= storeNextNonce || BigInt(poolNonce) >= storeNextNonce) return result;
  result.reopened = await reopenMinedFromNonce(context.db, network.chainId, sender, chainNonce);
  result.gaps = await addMissingGaps(context.db, network.chainId, sender, chainNonce);
  const rows = await listLiveFromNonce(
    context.db,
    network.chainId,
    sender,
    chainNonce,
    poolNonce,
    RESENDS_PER_PASS,
  );
  for (const row of rows) {
    const outcome = await rebroadcast(context, network, row);
    if (outcome.kind === 'accepted') result.rebroadcast++;
    else if (outcome.kind === 'rejected' || outcome.kind === 'insufficientFunds') {
      const failed = await failLongRefused(
        context.db,
        row,
        {
          code: 'ERROR_CHAIN_LOST',
          message: `the chain lost this transaction and refuses it again: ${outcome.message}`,
        },
        context.refusedFailAfterSeconds,
      );
      // Refused for less long: maybe in passing (another node after a failover, a restarting one), so it
      // keeps its nonce. The look goes on: the ones after it are given again too, and start their own
      // clocks now, so that a node that refuses them all (a restored state that lost the sender's funds)
      // has them failed together, not one window after another.
      if (failed) result.failed++;
    } else if (
      outcome.kind === 'unreachable' ||
      outcome.kind === 'unanswered' ||
      outcome.kind === 'rateLimited' ||
      outcome.kind === 'poolFull' ||
      outcome.kind === 'nonceTooHigh'
    ) {
      // The node is away or full, or wants the nonces before this one (a gap not filled yet): next pass.
      break;
    }
  }
  // The next tick goes on only after a full pass the node took whole. After a refusal, a failed record
  // (its nonce not filled yet) or a node away, the same records would be listed again: they wait for the
  // usual look.
  result.more = rows.length === RESENDS_PER_PASS && result.rebroadcast === rows.length;
  return result;
}
