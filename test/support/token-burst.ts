import type { apiClient } from './api-client.ts';

export type Accepted = { txHash: string; nonce: number; recipient: string };

/**
 * Sends `count` ERC-20 transfers of 1 unit with `concurrency` requests in flight, round-robin over
 * `clients`. Resolves with the accepted ones; requests that fail (e.g. the server was killed) are
 * counted, not thrown.
 */
export async function sendTransferBurst(options: {
  clients: Array<ReturnType<typeof apiClient>>;
  token: string;
  sender: string;
  /** One recipient for all, or one per transfer (by its index). */
  recipient: string | ((index: number) => string);
  count: number;
  concurrency: number;
  onAccepted?: (accepted: Accepted, total: number) => void;
}): Promise<{ accepted: Accepted[]; failed: number }> {
  const accepted: Accepted[] = [];
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < options.count) {
      const index = next++;
      const call = options.clients[index % options.clients.length];
      if (!call) return;
      const recipient = typeof options.recipient === 'string' ? options.recipient : options.recipient(index);
      try {
        const answer = await call('POST', '/core/v1/evm/transact/mutable', {
          contractAddress: options.token,
          sender: options.sender,
          blockchainNetwork: 31337,
          method: 'transfer',
          params: [recipient, 1],
        });
        if (answer.status === 201) {
          const item = { txHash: answer.body.txHash, nonce: answer.body.nonce, recipient };
          accepted.push(item);
          options.onAccepted?.(item, accepted.length);
        } else failed++;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return { accepted, failed };
}

/** True when the numbers are exactly start, start+1, … with no gap and no repeat. */
export function isContiguous(nonces: number[]): boolean {
  const sorted = [...nonces].sort((a, b) => a - b);
  return sorted.every((nonce, index) => index === 0 || nonce === (sorted[index - 1] as number) + 1);
}
