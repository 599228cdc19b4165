import { type Api, statusOf } from './api.ts';
import { nonceOf, rpc } from './chain.ts';
import type { HttpClient } from './http-client.ts';

/**
 * What the chain, the node's pool and the service say about a round whose sends were not all mined in
 * time, for the report: the nonce the chain waits for, whether the node holds the service's transaction
 * at that nonce, and that transaction's record. Anvil has lost accepted transactions about once in 30
 * runs; this is what tells a node's fault from the engine's the next time.
 */
export async function describeStall(
  http: HttpClient,
  options: { rpcUrl: string; api: Api; sender: string },
  accepted: Array<{ txHash: string; nonce: number }>,
): Promise<string> {
  const words: string[] = [];
  const ask = async <T>(what: string, call: () => Promise<T>): Promise<T | undefined> =>
    call().catch((error: unknown) => {
      words.push(`${what}: ${(error as Error).message.slice(0, 160)}`);
      return undefined;
    });
  const mined = await ask('chain nonce', () => nonceOf(http, options.rpcUrl, options.sender));
  const pending = await ask('pending nonce', () => nonceOf(http, options.rpcUrl, options.sender, 'pending'));
  const pool = await ask('txpool_status', () =>
    rpc<{ pending: string; queued: string }>(http, options.rpcUrl, 'txpool_status', []),
  );
  words.unshift(
    `chain waits for nonce ${mined} (pending count ${pending}; pool: ${
      pool ? `${Number(pool.pending)} pending, ${Number(pool.queued)} queued` : 'unknown'
    })`,
  );
  const waitedFor = accepted.find((send) => send.nonce === mined);
  if (waitedFor) {
    const held = await ask('eth_getTransactionByHash', () =>
      rpc<unknown>(http, options.rpcUrl, 'eth_getTransactionByHash', [waitedFor.txHash]),
    );
    const record = await ask('status', () => statusOf(options.api, waitedFor.txHash));
    words.push(
      `the service's send at that nonce, ${waitedFor.txHash}: the node ${held ? 'holds it' : 'does not know it'}, its record says ${record?.status ?? 'unknown'}`,
    );
  } else words.push('no send of this round holds that nonce');
  return words.join('; ');
}
