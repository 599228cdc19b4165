import { type AnvilDevnet, startAnvilDevnet } from '../../src/platform/devnet/anvil-devnet.ts';

export type AnvilInstance = AnvilDevnet;

/** An in-memory anvil (chain id 31337) on a free port for one test file; stop it in afterAll. */
export function startAnvil(options: { blockTime?: number; hardfork?: string } = {}): Promise<AnvilInstance> {
  return startAnvilDevnet({
    stateDir: undefined,
    port: 0,
    blockTimeSeconds: options.blockTime,
    ...(options.hardfork ? { hardfork: options.hardfork } : {}),
  });
}

/** One JSON-RPC call to a node; its error becomes a thrown Error with the node's message. */
export async function rpcCall(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error) throw new Error(answer.error.message);
  return answer.result;
}
