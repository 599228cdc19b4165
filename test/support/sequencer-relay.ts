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

/**
 * JSON-RPC in front of anvil that behaves like an L2 sequencer (Arbitrum, OP): a transaction whose nonce
 * is above the sender's pending nonce is refused with geth's "nonce too high" instead of queued, and
 * it can lose transactions it said it took, as a restarted sequencer does. Everything else goes to
 * anvil unchanged. Sequencers cannot run here; this speaks their wire protocol.
 */
export async function startSequencerRelay(anvilUrl: string): Promise<SequencerRelay> {
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
    if (BigInt(nonce ?? 0) > BigInt(pending.result as string)) {
      stats.nonceTooHigh++;
      return {
        jsonrpc: '2.0',
        id: item.id,
        error: {
          code: -32000,
          message: `nonce too high: address ${from}, tx: ${nonce} state: ${BigInt(pending.result as string)}`,
        },
      };
    }
    if (toDrop > 0) {
      toDrop--;
      stats.dropped++;
      return { jsonrpc: '2.0', id: item.id, result: keccak256(raw) };
    }
    return forward(item);
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
