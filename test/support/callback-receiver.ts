import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedCallback = { headers: IncomingHttpHeaders; body: string; url: string };

export type CallbackReceiver = {
  url: string;
  port: number;
  received: ReceivedCallback[];
  /** The next callback received (waits for it). */
  next(timeoutMs?: number): Promise<ReceivedCallback>;
  close(): Promise<void>;
};

/** A customer's HTTP server that takes callbacks (answers `status`, 204 by default) and keeps them. */
export async function startCallbackReceiver(
  options: { port?: number; status?: number } = {},
): Promise<CallbackReceiver> {
  const received: ReceivedCallback[] = [];
  let read = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'GET') {
        // A page the wallet page sends the user to (cancel, fallback): something a browser can show.
        response.setHeader('content-type', 'text/html; charset=utf-8');
        response.end('<!doctype html><title>shop</title><p>Back at the shop.</p>');
        return;
      }
      received.push({
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        url: request.url ?? '',
      });
      response.statusCode = options.status ?? 204;
      response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/wallet-created`,
    port,
    received,
    async next(timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length <= read) {
        if (Date.now() > deadline) throw new Error(`no callback within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return received[read++] as ReceivedCallback;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Checks `X-Chaingate-Signature: sha256=<hex>` the way a customer would. */
export function signatureIsValid(callback: ReceivedCallback, key: string): boolean {
  const header = String(callback.headers['x-chaingate-signature'] ?? '');
  const expected = `sha256=${createHmac('sha256', key).update(callback.body).digest('hex')}`;
  return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
}

/** A loopback port nothing listens on (yet). */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
