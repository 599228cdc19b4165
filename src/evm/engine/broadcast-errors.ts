import {
  isNodeTransportFailure,
  isRateLimited,
  mayHaveReachedNode,
  nodeRpcError,
  transportFailureWords,
} from '../../platform/networks/node-failure.ts';

/** What a node's answer to `eth_sendRawTransaction` means for the engine. */
export type BroadcastOutcome =
  /** `known`: the node had it already ("already known"), so this call gave it nothing new. */
  | { kind: 'accepted'; known?: true }
  | { kind: 'nonceTooLow' }
  /** The node lacks an earlier nonce of the sender (lost pool, or a sequencer that refuses gaps). */
  | { kind: 'nonceTooHigh' }
  | { kind: 'underpriced' }
  /**
   * The max fee per gas is below the block's base fee (the base fee rose after it was signed): not a
   * refusal for good. Re-signed at the current fees, the same nonce is taken again.
   */
  | { kind: 'feeCapTooLow'; message: string }
  | { kind: 'insufficientFunds'; message: string }
  | { kind: 'rejected'; message: string }
  /** Nothing reached the node (a refused connection, an HTTP refusal): the transaction was not sent. */
  | { kind: 'unreachable'; message: string; cause?: unknown }
  /**
   * The request went out but no answer came back (a timeout, a dropped connection, a gateway's 5xx):
   * the node may hold the transaction, so it counts as sent and only its own bytes go out again.
   */
  | { kind: 'unanswered'; message: string }
  /** The node (a hosted provider) refused the call for its rate limit: nothing was taken. */
  | { kind: 'rateLimited'; message: string }
  /** The node's pool is full: nothing was taken, and the same bytes may be taken later. */
  | { kind: 'poolFull'; message: string };

function messagesOf(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth++) {
    const e = current as { details?: string; shortMessage?: string; message?: string; cause?: unknown };
    parts.push(e.details ?? '', e.shortMessage ?? '', e.message ?? '');
    current = e.cause;
  }
  return parts.join(' | ').toLowerCase();
}

// How nodes word their refusals of a raw transaction, lowercased. Chainlink's list of client errors
// (core/chains/evm/client/errors.go) was the checklist:
// - geth, Erigon, reth, anvil: "already known", "nonce too low", "nonce too high", "replacement
//   transaction underpriced", "transaction underpriced", "insufficient funds for gas * price + value";
// - Nethermind, its AcceptTxResult names: "AlreadyKnown", "OldNonce, Current nonce: …", "NonceGap,
//   Future nonce. Expected nonce: …" (it refuses gapped nonces, as sequencers do), "NonceTooFarInFuture",
//   "FeeTooLow, …", "FeeTooLowToCompete", "InsufficientFunds, Account balance: …";
// - Besu: "Known transaction", "Nonce too low", "Replacement transaction underpriced", "Gas price below
//   configured minimum gas price", "Upfront cost exceeds account balance";
// - OpenEthereum: "Transaction with the same hash was already imported.", "Transaction nonce is too low.
//   Try incrementing the nonce.", "Transaction gas price is too low. …", "… There is another
//   transaction with same nonce in the queue", "Insufficient funds. …";
// - Moonbeam "Pool(AlreadyImported)", "Pool(Stale)"; Arbitrum "not enough funds for gas".
const alreadyKnown = /already ?(known|imported)|known transaction|already in (the )?(mempool|pool)/;
const nonceTooLow =
  /nonce ?(is )?too ?low|old ?nonce|nonce has already been used|invalid nonce.*lower|pool\(stale\)/;
const nonceTooHigh = /nonce ?too ?high|nonce ?gap|nonce[ _]?too[ _]?far[ _]?in(to)?[ _]?(the[ _])?future/;
// geth's and anvil's ErrFeeCapTooLow, and viem's FeeCapTooLowError wordings.
const feeCapTooLow =
  /max fee per gas less than (the )?(block )?base ?fee|fee cap less than (the )?block base ?fee/;
// geth's ErrTxPoolOverflow ("txpool is full"), and "transaction pool is full" as other pools say it.
const poolFull = /t(x|ransaction) ?pool (is )?full|txpoolfull/;
const underpriced =
  /underpriced|fee ?too ?low|replacement.*(fee|gas)|gas price (is )?(too low|below)|same nonce in the (queue|tx pool)/;
const insufficientFunds =
  /insufficient ?(funds|balance)|lack of funds|upfront cost exceeds account balance|not enough funds/;

/** Classifies a broadcast error from its messages (see the wordings above). */
export function classifyBroadcastError(error: unknown): BroadcastOutcome {
  // Before the transport check: a plain HTTP 429 is a rate limit too, not a node that is away.
  if (isRateLimited(error)) {
    // The provider's words, or (a plain 429 carries none) the status.
    const message = nodeRpcError(error)?.message ?? 'HTTP 429';
    return { kind: 'rateLimited', message: message.slice(0, 200) };
  }
  if (isNodeTransportFailure(error)) {
    const message = `the node ${transportFailureWords(error)}`;
    return mayHaveReachedNode(error)
      ? { kind: 'unanswered', message }
      : { kind: 'unreachable', message, cause: error };
  }
  const text = messagesOf(error);
  if (alreadyKnown.test(text)) return { kind: 'accepted', known: true };
  if (nonceTooLow.test(text)) return { kind: 'nonceTooLow' };
  if (nonceTooHigh.test(text)) return { kind: 'nonceTooHigh' };
  if (poolFull.test(text)) return { kind: 'poolFull', message: 'txpool is full' };
  if (feeCapTooLow.test(text)) {
    return { kind: 'feeCapTooLow', message: 'max fee per gas less than block base fee' };
  }
  if (underpriced.test(text)) return { kind: 'underpriced' };
  if (insufficientFunds.test(text)) {
    return { kind: 'insufficientFunds', message: 'insufficient funds for gas * price + value' };
  }
  // A node's own error in a transport's words: a proxy in front of the node that could not reach it
  // (as before: nothing sent), or whose call to it timed out or was cut, after which the node may hold
  // the transaction. Only those words count as unanswered: a record kept on any other words would wait
  // for a node that has in fact refused it.
  if (/econnrefused|enotfound|getaddrinfo|fetch failed|network|http request failed/.test(text)) {
    return { kind: 'unreachable', message: 'the node is unreachable' };
  }
  if (/timed? ?out|deadline exceeded|econnreset|socket hang up/.test(text)) {
    return { kind: 'unanswered', message: 'the node did not answer whether it took the transaction' };
  }
  const short =
    (error as { details?: string; shortMessage?: string })?.details ??
    (error as Error)?.message ??
    String(error);
  return { kind: 'rejected', message: short.slice(0, 500) };
}
