import { isNodeTransportFailure } from '../../platform/networks/node-failure.ts';

/** What a node's answer to `eth_sendRawTransaction` means for the engine. */
export type BroadcastOutcome =
  | { kind: 'accepted' }
  | { kind: 'nonceTooLow' }
  /** The node lacks an earlier nonce of the sender (lost pool, or a sequencer that refuses gaps). */
  | { kind: 'nonceTooHigh' }
  | { kind: 'underpriced' }
  | { kind: 'insufficientFunds'; message: string }
  | { kind: 'rejected'; message: string }
  | { kind: 'unreachable'; message: string };

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

/** Classifies a broadcast error from its messages (geth, anvil, reth, erigon and besu wordings). */
export function classifyBroadcastError(error: unknown): BroadcastOutcome {
  if (isNodeTransportFailure(error))
    return { kind: 'unreachable', message: 'the node did not answer in time' };
  const text = messagesOf(error);
  if (/already (known|imported)|known transaction|alreadyknown|already in (the )?(mempool|pool)/.test(text)) {
    return { kind: 'accepted' };
  }
  if (/nonce too low|noncetoolow|nonce has already been used|old nonce|invalid nonce.*lower/.test(text)) {
    return { kind: 'nonceTooLow' };
  }
  if (/nonce too high|noncetoohigh|nonce too far in(to)? (the )?future|nonce_too_far_in_future/.test(text)) {
    return { kind: 'nonceTooHigh' };
  }
  if (/underpriced|fee too low|replacement.*(fee|gas)/.test(text)) return { kind: 'underpriced' };
  if (/insufficient funds|insufficient balance|lack of funds/.test(text)) {
    return { kind: 'insufficientFunds', message: 'insufficient funds for gas * price + value' };
  }
  if (
    /fetch failed|econnrefused|econnreset|timed? ?out|socket hang up|network|http request failed/.test(text)
  ) {
    return { kind: 'unreachable', message: 'the node is unreachable' };
  }
  const short =
    (error as { details?: string; shortMessage?: string })?.details ??
    (error as Error)?.message ??
    String(error);
  return { kind: 'rejected', message: short.slice(0, 500) };
}
