import { createServer, type Server } from 'node:http';
import { type AddressInfo, createConnection, createServer as createNetServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { failoverTransport } from './failover-transport.ts';
import { JsonRpcError, keepAliveTransport, RpcTransportError } from './keep-alive-transport.ts';

type Node = { url: string; calls: string[]; close(): Promise<void> };
const nodes: Node[] = [];

/** A JSON-RPC node on loopback answering every call with `answer(method)` (a result or an error). */
async function startNode(
  answer: (
    method: string,
  ) => { result: unknown } | { error: { code: number; message: string; data?: unknown } },
) {
  const calls: string[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    req.on('end', () => {
      const call = JSON.parse(text) as { id: number; method: string };
      calls.push(call.method);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, ...answer(call.method) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const node: Node = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  nodes.push(node);
  return node;
}

/** The transport's own request (the client wraps it in viem's error classes; `EvmNetwork.rpc` does not). */
const rawRequest = (transport: ReturnType<typeof failoverTransport>) =>
  transport({}).config.request as (call: { method: string; params: unknown[] }) => Promise<unknown>;

const request = (urls: string[], method = 'eth_call') =>
  rawRequest(failoverTransport(urls.map((url) => keepAliveTransport(url))))({ method, params: [] }).then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );

afterEach(async () => {
  await Promise.all(nodes.splice(0).map((node) => node.close()));
});

describe('failover transport', () => {
  it('asks the next URL when a node answers an error of its own, and answers with the first result', async () => {
    const limited = await startNode(() => ({ error: { code: -32005, message: 'limit exceeded' } }));
    const healthy = await startNode(() => ({ result: '0x2a' }));
    expect(await request([limited.url, healthy.url])).toEqual({ result: '0x2a' });
    expect([limited.calls, healthy.calls]).toEqual([['eth_call'], ['eth_call']]);
  });

  it('does not ask another node about a call the EVM failed: a revert is the answer', async () => {
    // geth's revert, and Nethermind's before it moved to code 3 (the reason in data).
    const failures = [
      { code: 3, message: 'execution reverted: no' },
      { code: -32015, message: 'VM execution error.', data: 'revert: no' },
    ];
    for (const failure of failures) {
      const reverting = await startNode(() => ({ error: failure }));
      const other = await startNode(() => ({ result: '0x' }));
      const answer = await request([reverting.url, other.url]);
      expect((answer as { error: unknown }).error).toBeInstanceOf(JsonRpcError);
      expect(other.calls).toEqual([]);
    }
  });

  it('puts a URL that did not answer behind the others, and still tries it last', async () => {
    // Accepts each connection and closes it at once: no answer, a transport failure; counts attempts.
    let attempts = 0;
    const hangUp = createNetServer((socket) => {
      attempts++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
    const hangUpUrl = `http://127.0.0.1:${(hangUp.address() as AddressInfo).port}`;
    try {
      const healthy = await startNode(() => ({ result: '0x1' }));
      const call = rawRequest(
        failoverTransport([keepAliveTransport(hangUpUrl), keepAliveTransport(healthy.url)]),
      );
      expect(await call({ method: 'eth_chainId', params: [] })).toBe('0x1');
      const afterFirst = attempts;
      expect(afterFirst).toBeGreaterThan(0);
      expect(await call({ method: 'eth_chainId', params: [] })).toBe('0x1');
      expect(await call({ method: 'eth_chainId', params: [] })).toBe('0x1');
      expect(attempts).toBe(afterFirst);
      expect(healthy.calls).toHaveLength(3);
      // The healthy node gone: the one behind is tried again, last, and its failure is the answer.
      await healthy.close();
      nodes.splice(nodes.indexOf(healthy), 1);
      const failure = await call({ method: 'eth_chainId', params: [] }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(RpcTransportError);
      expect(attempts).toBeGreaterThan(afterFirst);
    } finally {
      await new Promise((resolve) => hangUp.close(resolve));
    }
  });

  it('asks a URL that did not answer first again once its cooldown is over', async () => {
    let up = false;
    const flaky = await startNode(() => ({ result: '0xf' }));
    // Stands for the first URL: refuses connections until `up`, then forwards to the flaky node.
    const piped = new Set<Socket>();
    const gate = createNetServer((socket) => {
      if (!up) return socket.destroy();
      piped.add(socket);
      const upstream = createConnection(Number(new URL(flaky.url).port), '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
    try {
      const gateUrl = `http://127.0.0.1:${(gate.address() as AddressInfo).port}`;
      const healthy = await startNode(() => ({ result: '0x1' }));
      const call = rawRequest(
        failoverTransport([keepAliveTransport(gateUrl), keepAliveTransport(healthy.url)], {
          cooldownMs: 100,
        }),
      );
      expect(await call({ method: 'eth_chainId', params: [] })).toBe('0x1');
      up = true;
      // Within the cooldown the second URL still answers; after it, the first one does again.
      expect(await call({ method: 'eth_chainId', params: [] })).toBe('0x1');
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await call({ method: 'eth_chainId', params: [] })).toBe('0xf');
      expect(flaky.calls).toEqual(['eth_chainId']);
    } finally {
      for (const socket of piped) socket.destroy();
      await new Promise((resolve) => gate.close(resolve));
    }
  });

  it('fails a call that went out unanswered as such, though a later URL could not be reached', async () => {
    // The first URL takes the request and never answers; the second refuses connections.
    // It reads and drops what comes, so a connection the client closes ends here too.
    const silent = createNetServer((socket) => socket.resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const refusing = createNetServer();
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const refusingUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
    await new Promise((resolve) => refusing.close(resolve));
    try {
      const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const call = (urls: string[]) =>
        rawRequest(failoverTransport(urls.map((url) => keepAliveTransport(url, { timeoutMs: 200 }))))({
          method: 'eth_sendRawTransaction',
          params: ['0x00'],
        }).catch((error: unknown) => error as RpcTransportError);
      // Whichever order: the node behind the silent URL may hold the transaction.
      for (const urls of [
        [silentUrl, refusingUrl],
        [refusingUrl, silentUrl],
      ]) {
        expect(await call(urls)).toMatchObject({ name: 'RpcTransportError', maybeDelivered: true });
      }
      expect(await call([refusingUrl, refusingUrl])).toMatchObject({ maybeDelivered: false });
    } finally {
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
