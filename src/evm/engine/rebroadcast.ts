import type { Address } from 'viem';
import type { Database } from '../../platform/db/database.ts';
import { fundFromFaucet } from '../../platform/networks/devnet-faucet.ts';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';
import { type BroadcastOutcome, classifyBroadcastError } from './broadcast-errors.ts';
import type { ConfirmationTracker } from './confirmation-tracker.ts';
import { clearRefusal, markRefused } from './refused-resends.repository.ts';
import type { TransactionRow } from './transaction-record.ts';
import { failSignedTransaction, markBroadcast } from './transactions.repository.ts';

export type RebroadcastContext = {
  db: Database;
  tracker: ConfirmationTracker;
  logger: { warn(object: object, message: string): void };
  /**
   * Signs the record again under its nonce at the current fees and gives that to the node: for stored
   * bytes the node refuses because the base fee rose above their max fee.
   */
  reprice?: (network: EvmNetwork, row: TransactionRow) => Promise<BroadcastOutcome>;
  /**
   * How long the node must keep refusing a stored transaction (in words that name no passing cause)
   * before the look at the chain's nonces fails it and fills its nonce.
   */
  refusedFailAfterSeconds: number;
};

async function send(network: EvmNetwork, rawTx: string): Promise<BroadcastOutcome> {
  try {
    await network.client.request({ method: 'eth_sendRawTransaction', params: [rawTx as Address] });
    return { kind: 'accepted' };
  } catch (error) {
    return classifyBroadcastError(error);
  }
}

/**
 * Gives a stored transaction to the node again, from its stored raw bytes (same hash, same contract
 * address). On a devnet a sender the chain forgot the funding of is funded again first. Answers what
 * the node said; a refusal is counted as an attempt, so it is retried every few seconds, not every tick.
 */
export async function rebroadcast(
  context: RebroadcastContext,
  network: EvmNetwork,
  row: TransactionRow,
): Promise<BroadcastOutcome> {
  if (!row.raw_tx) return { kind: 'rejected', message: 'no stored raw transaction' };
  let outcome = await send(network, row.raw_tx);
  if (outcome.kind === 'insufficientFunds' && network.hasDevnetFaucet) {
    await fundFromFaucet(network, row.sender as Address).catch(() => false);
    outcome = await send(network, row.raw_tx);
  }
  // A node that already holds an accepted transaction's bytes was given nothing: the time since they
  // were given, after which a transaction not mined gets higher fees, runs on. Restarted on each look, a
  // node that holds a transaction and never mines it (anvil's pool has done so) would be asked again
  // forever, never re-priced. (A signed record still becomes inserted; a reorged one keeps its spacing.)
  if (outcome.kind === 'accepted' && outcome.known && row.state === 'inserted') {
    if (row.refused_since) await clearRefusal(context.db, row.id);
    return outcome;
  }
  // Refused in words that name no passing cause: the first such refusal starts the time after which the
  // look at the chain's nonces gives up on it (see `recoverSender`).
  if (outcome.kind === 'rejected' || outcome.kind === 'insufficientFunds')
    await markRefused(context.db, row.id);
  else await markBroadcast(context.db, row.id, outcome.kind === 'accepted');
  if (outcome.kind === 'accepted') return outcome;
  // Still a live transaction: failing it would give its nonce away while the fee is all that is wrong.
  if (outcome.kind === 'feeCapTooLow' && context.reprice) return context.reprice(network, row);
  context.logger.warn({ chainId: network.chainId, id: row.id, outcome }, 'rebroadcast refused');
  if (outcome.kind === 'insufficientFunds' && row.state === 'signed') {
    await failSignedTransaction(context.db, row, {
      code: 'ERROR_INSUFICIENT_FUNDS',
      message: outcome.message,
    });
  } else if (outcome.kind === 'nonceTooLow') {
    // Its nonce is used on chain; unless one of its own hashes holds it, another transaction took it.
    const head = await network.client.getBlockNumber({ cacheTime: 0 });
    if (!(await context.tracker.checkRecord(row, head))) {
      await failSignedTransaction(
        context.db,
        { ...row, nonce: null },
        { code: 'ERROR_NONCE_CONFLICT', message: `nonce ${row.nonce} was used by another transaction` },
      );
    }
  }
  return outcome;
}
