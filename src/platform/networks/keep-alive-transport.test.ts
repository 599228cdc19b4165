import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../../../test/support/anvil.ts';
import { forwardRpc } from '../../../test/support/counting-relay.ts';
import { findFreePort } from '../net/free-port.ts';
import { JsonRpcError, keepAliveTransport, RpcTransportError } from './keep-alive-transport.ts';

type Relay = { url: string; bodies: unknown[]; close(): Promise<void> };

/**
 * A JSON-RPC relay in front of anvil that records every body it forwards. With `refuseBatches` it
 * answers an array the way providers without batch support do (one error object, id null).
 */
async function startRelay(
  upstream: string,
  options: { refuseBatches?: boolean; answer?: string; rateLimitFirst?: number } = {},
): Promise<Relay> {
  const bodies: unknown[] = [];
  let rateLimited = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      const body = JSON.parse(text) as unknown;
      bodies.push(body);
      if (options.answer !== undefined) {
        res.setHeader('content-type', 'application/json');
        res.end(options.answer);
        return;
      }
      if (rateLimited < (options.rateLimitFirst ?? 0)) {
        // As hosted providers answer over their rate: HTTP 429 and one JSON-RPC error.
        rateLimited++;
        res.statusCode = 429;
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: 429, message: 'Too Many Requests' } }),
        );
        return;
      }
      if (options.refuseBatches && Array.isArray(body)) {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32600, message: 'batch not supported' },
          }),
        );
        return;
      }
      forwardRpc(upstream, text, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** viem wraps transport errors in its own classes; ours is at the end of the cause chain. */
function rootCause(error: unknown): unknown {
  let current = error;
  while ((current as { cause?: unknown })?.cause) current = (current as { cause: unknown }).cause;
  return current;
}

const holders = Array.from(
  { length: 7 },
  (_, i) => `0x${(0xa11ce00 + i).toString(16).padStart(40, '0')}` as const,
);

describe('keep-alive JSON-RPC transport', () => {
  let anvil: AnvilInstance;

  beforeAll(async () => {
    anvil = await startAnvil();
    const setup = keepAliveTransport(anvil.rpcUrl)({});
    for (const [i, holder] of holders.entries()) {
      await setup.request({ method: 'anvil_setBalance', params: [holder, `0x${(1000 + i).toString(16)}`] });
    }
  });
  afterAll(async () => {
    await anvil?.stop();
  });

  it('sends calls made in the same turn as one batch and gives each caller its own answer', async () => {
    const relay = await startRelay(anvil.rpcUrl);
    try {
      const rpc = keepAliveTransport(relay.url, { maxBatchSize: 50 })({});
      const balances = await Promise.all(
        holders.map((holder) => rpc.request({ method: 'eth_getBalance', params: [holder, 'latest'] })),
      );
      expect(balances.map((hex) => Number(BigInt(hex as string)))).toEqual(holders.map((_, i) => 1000 + i));
      expect(relay.bodies).toHaveLength(1);
      expect(relay.bodies[0]).toHaveLength(holders.length);
    } finally {
      await relay.close();
    }
  });

  it('splits a turn into batches of at most maxBatchSize', async () => {
    const relay = await startRelay(anvil.rpcUrl);
    try {
      const rpc = keepAliveTransport(relay.url, { maxBatchSize: 3 })({});
      await Promise.all(
        holders.map((holder) => rpc.request({ method: 'eth_getBalance', params: [holder, 'latest'] })),
      );
      const sizes = relay.bodies.map((body) => (Array.isArray(body) ? body.length : 1)).sort();
      expect(sizes).toEqual([1, 3, 3]);
    } finally {
      await relay.close();
    }
  });

  it('fails only the call the node answered with an error inside a batch', async () => {
    const rpc = keepAliveTransport(anvil.rpcUrl, { maxBatchSize: 50 })({});
    const [good, bad] = await Promise.allSettled([
      rpc.request({ method: 'eth_getBalance', params: [holders[0], 'latest'] }),
      rpc.request({ method: 'eth_noSuchMethod', params: [] }),
    ]);
    expect(good).toMatchObject({ status: 'fulfilled', value: '0x3e8' });
    expect(bad.status).toBe('rejected');
    const cause = rootCause((bad as PromiseRejectedResult).reason);
    expect(cause).toBeInstanceOf(JsonRpcError);
    expect((cause as JsonRpcError).code).toBe(-32601);
  });

  it('falls back to single requests for good when the node refuses batches', async () => {
    const relay = await startRelay(anvil.rpcUrl, { refuseBatches: true });
    try {
      const rpc = keepAliveTransport(relay.url, { maxBatchSize: 50 })({});
      const first = await Promise.all(
        holders.slice(0, 3).map((h) => rpc.request({ method: 'eth_getBalance', params: [h, 'latest'] })),
      );
      expect(first).toEqual(['0x3e8', '0x3e9', '0x3ea']);
      const refusedBatches = relay.bodies.filter(Array.isArray).length;
      expect(refusedBatches).toBe(1);
      const second = await Promise.all(
        holders.slice(3, 6).map((h) => rpc.request({ method: 'eth_getBalance', params: [h, 'latest'] })),
      );
      expect(second).toEqual(['0x3eb', '0x3ec', '0x3ed']);
      expect(relay.bodies.filter(Array.isArray).length).toBe(refusedBatches);
    } finally {
      await relay.close();
    }
  });

  it('fails the calls of a rate-limited batch with the node answer, and keeps batching', async () => {
    const relay = await startRelay(anvil.rpcUrl, { rateLimitFirst: 1 });
    try {
      const rpc = keepAliveTransport(relay.url, { maxBatchSize: 50 })({});
      const balances = (from: number) =>
        Promise.allSettled(
          holders
            .slice(from, from + 3)
            .map((h) => rpc.request({ method: 'eth_getBalance', params: [h, 'latest'] })),
        );
      const limited = await balances(0);
      for (const outcome of limited) {
        expect(outcome.status).toBe('rejected');
        expect(rootCause((outcome as PromiseRejectedResult).reason)).toMatchObject({
          name: 'JsonRpcError',
          code: 429,
        });
      }
      const after = await balances(3);
      expect(after.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value)).toEqual([
        '0x3eb',
        '0x3ec',
        '0x3ed',
      ]);
      // Both turns went as one batch each: the rate limit did not turn batching off.
      expect(relay.bodies.map((body) => Array.isArray(body))).toEqual([true, true]);
    } finally {
      await relay.close();
    }
  });

  it('rejects a call answered with JSON that is not JSON-RPC, as a transport error', async () => {
    for (const answer of ['null', '42', '"text"']) {
      const relay = await startRelay(anvil.rpcUrl, { answer });
      try {
        const rpc = keepAliveTransport(relay.url, { maxBatchSize: 50 })({});
        const failure = await rpc.request({ method: 'eth_blockNumber', params: [] }).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(rootCause(failure), answer).toBeInstanceOf(RpcTransportError);
        expect((failure as Error).message).toContain('eth_blockNumber');
      } finally {
        await relay.close();
      }
    }
  });

  it('rejects every call of a batch with a transport error when the node is down, without its URL', async () => {
    const port = await findFreePort();
    const rpc = keepAliveTransport(`http://user:secret@127.0.0.1:${port}`, { maxBatchSize: 50 })({});
    const results = await Promise.allSettled(
      holders.slice(0, 3).map((h) => rpc.request({ method: 'eth_getBalance', params: [h, 'latest'] })),
    );
    for (const result of results) {
      expect(result.status).toBe('rejected');
      const reason = (result as PromiseRejectedResult).reason as Error;
      expect(rootCause(reason)).toBeInstanceOf(RpcTransportError);
      expect(reason.message).toContain('node request failed');
      expect(reason.message).not.toContain('secret');
      // A refused connection: nothing reached a node.
      expect((rootCause(reason) as RpcTransportError).maybeDelivered).toBe(false);
    }
  });

  it('tells a call that may have reached the node (no answer, a 5xx) from a refused one (401, 429)', async () => {
    const server: Server = createServer((req, res) => {
      const status = Number(req.url?.slice(1));
      if (status === 0) return; // never answers
      res.statusCode = status;
      res.setHeader('content-type', 'text/plain');
      res.end('not JSON-RPC\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const failureAt = async (path: string) => {
      const rpc = keepAliveTransport(`http://127.0.0.1:${port}/${path}`, { timeoutMs: 300 })({});
      const error = await rpc.request({ method: 'eth_sendRawTransaction', params: ['0x00'] }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      return rootCause(error) as RpcTransportError;
    };
    try {
      expect(await failureAt('0')).toMatchObject({ maybeDelivered: true, timedOut: true });
      for (const status of [500, 502, 504])
        expect(await failureAt(String(status)), String(status)).toMatchObject({
          maybeDelivered: true,
          httpStatus: status,
        });
      for (const status of [401, 404, 429])
        expect(await failureAt(String(status)), String(status)).toMatchObject({
          maybeDelivered: false,
          httpStatus: status,
        });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
