import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type RpcItem = { method: string; params?: unknown[] };

export type CountingRelay = {
  url: string;
  /** JSON-RPC calls seen per method (batch items counted one by one); clear it to start counting. */
  counts: Map<string, number>;
  close(): void;
};

/** Forwards one JSON-RPC request body to the node and pipes the node's answer, status included, back. */
export function forwardRpc(nodeUrl: string, body: string, res: ServerResponse): void {
  const forward = request(
    nodeUrl,
    { method: 'POST', headers: { 'content-type': 'application/json' } },
    (up) => {
      res.statusCode = up.statusCode ?? 502;
      up.pipe(res);
    },
  );
  forward.end(body);
}

/**
 * A JSON-RPC relay in front of a node that forwards everything unchanged and counts the calls by
 * method, so a test can see what the service asks its node; `onItem` sees every call as it passes.
 */
export async function startCountingRelay(
  nodeUrl: string,
  onItem: (item: RpcItem) => void = () => {},
): Promise<CountingRelay> {
  const counts = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      const body = JSON.parse(text) as RpcItem | RpcItem[];
      for (const item of Array.isArray(body) ? body : [body]) {
        counts.set(item.method, (counts.get(item.method) ?? 0) + 1);
        onItem(item);
      }
      forwardRpc(nodeUrl, text, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: () => server.close(),
  };
}
