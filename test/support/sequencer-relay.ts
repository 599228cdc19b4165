import { type Hex, keccak256, parseTransaction, recoverTransactionAddress } from 'viem';
import { askNode, type RpcAnswer, type RpcItem, serveJsonRpc } from './json-rpc-server.ts';

export type SequencerRelay = {
  url: string;
  /** The next `count` transactions are answered with their hash but never reach the chain. */
  dropNext(count: number): void;
  /** How many sends were refused with "nonce too high", and how many were dropped. */
  stats: { nonceTooHigh: number; dropped: number };
  close(): Promise<void>;
};

/** How the relay words its refusals of a raw transaction: as geth (and the sequencers built on it) or Nethermind. */
export type RefusalWording = 'geth' | 'nethermind';

/**
 * A refusal of anvil's in Nethermind's words, its AcceptTxResult names (as chainlink's list of client
 * errors quotes them): "OldNonce, …", "AlreadyKnown", "InsufficientFunds, …", "FeeTooLowToCompete".
 */
function inNethermindWords(message: string, nonce: bigint, state: bigint): string {
  if (/nonce too low/i.test(message))
    return `OldNonce, Current nonce: ${state}, nonce of rejected tx: ${nonce}`;
  if (/already (known|imported)/i.test(message)) return 'AlreadyKnown';
  if (/insufficient funds/i.test(message)) return 'InsufficientFunds, Account balance: 0, cumulative cost: 1';
  if (/underpriced/i.test(message)) return 'FeeTooLowToCompete';
  return message;
}

/**
 * JSON-RPC in front of anvil that behaves like an L2 sequencer (Arbitrum, OP), or a Nethermind node,
 * whose pool refuses nonce gaps too: a transaction whose nonce is above the sender's pending nonce is
 * refused ("nonce too high", or Nethermind's "NonceGap, …") instead of queued, and it can lose
 * transactions it said it took, as a restarted sequencer does. With Nethermind's wording, anvil's own
 * refusals of raw transactions are reworded too. Everything else goes to anvil unchanged. Neither can
 * run here; this speaks their wire protocol.
 */
export async function startSequencerRelay(
  anvilUrl: string,
  wording: RefusalWording = 'geth',
): Promise<SequencerRelay> {
  const stats = { nonceTooHigh: 0, dropped: 0 };
  let toDrop = 0;
  // One item at a time, in arrival order: a sequencer orders what it receives.
  let queue: Promise<unknown> = Promise.resolve();

  const forward = (item: RpcItem): Promise<RpcAnswer> => askNode(anvilUrl, item);

  const handle = async (item: RpcItem): Promise<RpcAnswer> => {
    if (item.method !== 'eth_sendRawTransaction') return forward(item);
    const raw = item.params?.[0] as Hex;
    const from = await recoverTransactionAddress({ serializedTransaction: raw as never });
    const { nonce } = parseTransaction(raw);
    const pending = await forward({
      jsonrpc: '2.0',
      id: 0,
      method: 'eth_getTransactionCount',
      params: [from, 'pending'],
    });
    const state = BigInt(pending.result as string);
    if (BigInt(nonce ?? 0) > state) {
      stats.nonceTooHigh++;
      const error =
        wording === 'nethermind'
          ? { code: -32010, message: `NonceGap, Future nonce. Expected nonce: ${state}` }
          : { code: -32000, message: `nonce too high: address ${from}, tx: ${nonce} state: ${state}` };
      return { jsonrpc: '2.0', id: item.id, error };
    }
    if (toDrop > 0) {
      toDrop--;
      stats.dropped++;
      return { jsonrpc: '2.0', id: item.id, result: keccak256(raw) };
    }
    const answer = await forward(item);
    if (wording !== 'nethermind' || answer.error === undefined) return answer;
    const message = inNethermindWords(answer.error.message, BigInt(nonce ?? 0), state);
    return { ...answer, error: { ...answer.error, message } };
  };

  const ordered = (item: RpcItem): Promise<RpcAnswer> => {
    const answer = queue.then(() => handle(item));
    queue = answer.catch(() => undefined);
    return answer;
  };

  const server = await serveJsonRpc(ordered);
  return {
    url: server.url,
    dropNext: (count) => {
      toDrop += count;
    },
    stats,
    close: server.close,
  };
}
