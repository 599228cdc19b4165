import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RpcItem = { jsonrpc: '2.0'; id: unknown; method: string; params?: unknown[] };
export type RpcError = { code: number; message: string; data?: unknown };
export type RpcAnswer = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: RpcError };

export type JsonRpcServer = { url: string; close(): Promise<void> };

/** Thrown by a handler: the whole HTTP request is answered with this status and text, not JSON-RPC. */
export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {
    super(`HTTP ${status}`);
  }
}

/** JSON-RPC over HTTP on loopback: every call, of a batch too, answered by `handle`. */
export async function serveJsonRpc(handle: (item: RpcItem) => Promise<RpcAnswer>): Promise<JsonRpcServer> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as RpcItem | RpcItem[];
      try {
        const answer = Array.isArray(body) ? await Promise.all(body.map(handle)) : await handle(body);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(answer));
      } catch (error) {
        if (!(error instanceof HttpRefusal)) throw error;
        res.statusCode = error.status;
        res.setHeader('content-type', 'text/plain');
        res.end(error.text);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Asks the node one JSON-RPC call and answers its answer. */
export async function askNode(nodeUrl: string, item: RpcItem): Promise<RpcAnswer> {
  const response = await fetch(nodeUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(item),
  });
  return (await response.json()) as RpcAnswer;
}
