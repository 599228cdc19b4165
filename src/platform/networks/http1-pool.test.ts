import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Http1Error, Http1Pool } from './http1-pool.ts';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

const servers: Array<Server | TcpServer> = [];
const pools: Http1Pool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) pool.close();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          if ('closeAllConnections' in server) server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

/** A real node:http server on loopback that answers each request through `handler`. */
async function serve(handler: Handler): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handler(request, Buffer.concat(chunks).toString('utf8'), response));
  });
  server.on('connection', () => connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/rpc/key?x=1`, connections: () => connections };
}

function poolFor(url: string, maxSockets = 4): Http1Pool {
  const pool = new Http1Pool(new URL(url), { maxSockets });
  pools.push(pool);
  return pool;
}

describe('Http1Pool', () => {
  it('posts JSON to the path and query of the URL and reuses one kept-alive connection', async () => {
    const seen: Array<{ url: string; type: string | undefined; body: string }> = [];
    const server = await serve((request, body, response) => {
      seen.push({ url: request.url ?? '', type: request.headers['content-type'], body });
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ echo: body }));
    });
    const pool = poolFor(server.url);
    for (const body of ['{"a":1}', '{"b":"ü"}', '[]']) {
      const answer = await pool.post(body, 5_000);
      expect(answer).toEqual({ status: 200, body: JSON.stringify({ echo: body }) });
    }
    expect(seen.map((s) => s.url)).toEqual(['/rpc/key?x=1', '/rpc/key?x=1', '/rpc/key?x=1']);
    expect(seen.every((s) => s.type === 'application/json')).toBe(true);
    expect(server.connections()).toBe(1);
  });

  it('reads chunked answers, status codes and several requests in flight at once', async () => {
    const server = await serve((_request, body, response) => {
      const { n } = JSON.parse(body) as { n: number };
      response.statusCode = n % 2 === 0 ? 200 : 503;
      // Written in parts without a length: node:http sends it chunked.
      response.write(`{"n":${n},`);
      setTimeout(() => response.end(`"pad":"${'x'.repeat(n * 1000)}"}`), 5);
    });
    const pool = poolFor(server.url, 3);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) => pool.post(JSON.stringify({ n }), 5_000)),
    );
    answers.forEach((answer, n) => {
      expect(answer.status).toBe(n % 2 === 0 ? 200 : 503);
      expect(JSON.parse(answer.body)).toEqual({ n, pad: 'x'.repeat(n * 1000) });
    });
    expect(server.connections()).toBeLessThanOrEqual(3);
  });

  it('reads large answers, with a length or chunked, arriving in many pieces', async () => {
    const big = JSON.stringify({
      receipts: Array.from({ length: 20_000 }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`),
    });
    const server = await serve((_request, body, response) => {
      if (body === '"length"') response.setHeader('content-length', Buffer.byteLength(big));
      // Written in 64 KB pieces, as a node sends a big block's receipts.
      for (let at = 0; at < big.length; at += 65_536) response.write(big.slice(at, at + 65_536));
      response.end();
    });
    const pool = poolFor(server.url, 1);
    expect((await pool.post('"length"', 5_000)).body).toBe(big);
    expect((await pool.post('"chunked"', 5_000)).body).toBe(big);
    expect((await pool.post('"length"', 5_000)).body).toBe(big);
    expect(server.connections()).toBe(1);
  });

  it('sends the URL credentials as Basic authorization', async () => {
    let authorization: string | undefined;
    const server = await serve((request, _body, response) => {
      authorization = request.headers.authorization;
      response.end('{}');
    });
    const url = new URL(server.url);
    url.username = 'user';
    url.password = 'p@ss word';
    await poolFor(url.toString()).post('{}', 5_000);
    expect(authorization).toBe(`Basic ${Buffer.from('user:p@ss word').toString('base64')}`);
  });

  it('opens a new connection after the server answered Connection: close', async () => {
    const server = await serve((_request, _body, response) => {
      response.setHeader('connection', 'close');
      response.end('{"ok":true}');
    });
    const pool = poolFor(server.url);
    expect((await pool.post('{}', 5_000)).body).toBe('{"ok":true}');
    expect((await pool.post('{}', 5_000)).body).toBe('{"ok":true}');
    expect(server.connections()).toBe(2);
  });

  it('reads an answer delimited by the end of the connection (HTTP/1.0 style)', async () => {
    const tcp = createTcpServer((socket) => {
      socket.once('data', () =>
        socket.end('HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{"old":1}'),
      );
    });
    servers.push(tcp);
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const { port } = tcp.address() as { port: number };
    const answer = await poolFor(`http://127.0.0.1:${port}/`).post('{}', 5_000);
    expect(answer).toEqual({ status: 200, body: '{"old":1}' });
  });

  it('does not reuse a connection that sent more than its Content-Length', async () => {
    let connections = 0;
    const tcp = createTcpServer((socket) => {
      connections++;
      socket.on('data', () =>
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n{"one":1}HTTP/1.1 200 OK\r\n'),
      );
    });
    servers.push(tcp);
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const { port } = tcp.address() as { port: number };
    const pool = poolFor(`http://127.0.0.1:${port}/`);
    expect((await pool.post('{}', 5_000)).body).toBe('{"one":1}');
    expect((await pool.post('{}', 5_000)).body).toBe('{"one":1}');
    expect(connections).toBe(2);
  });

  it('fails within the deadline when the server never answers, and is not retryable', async () => {
    const server = await serve(() => {});
    const pool = poolFor(server.url);
    const error = await pool.post('{}', 200).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Http1Error);
    expect((error as Http1Error).message).toMatch(/no answer within 200 ms/);
    expect((error as Http1Error).timedOut).toBe(true);
    expect((error as Http1Error).retryable).toBe(false);
    // The request went out on a connected socket: the server may have acted on it.
    expect((error as Http1Error).maybeDelivered).toBe(true);
  });

  it('takes a new connection the server dropped after reading the request as maybe delivered', async () => {
    let received = '';
    const server = await serve((request, body) => {
      received = body;
      request.socket.destroy();
    });
    const error = await poolFor(server.url)
      .post('{"sent":true}', 5_000)
      .catch((caught: unknown) => caught);
    expect(received).toBe('{"sent":true}');
    expect(error).toBeInstanceOf(Http1Error);
    expect((error as Http1Error).retryable).toBe(false);
    expect((error as Http1Error).maybeDelivered).toBe(true);
  });

  it('marks a reused connection the server dropped before answering as retryable', async () => {
    let requests = 0;
    const server = await serve((request, _body, response) => {
      requests++;
      if (requests === 1) response.end('{}');
      else request.socket.destroy();
    });
    const pool = poolFor(server.url);
    await pool.post('{}', 5_000);
    const error = await pool.post('{}', 5_000).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Http1Error);
    expect((error as Http1Error).retryable).toBe(true);
  });

  it('fails at once when nothing listens, naming no path or credentials', async () => {
    const server = await serve(() => {});
    const { port } = new URL(server.url);
    await new Promise<void>((resolve) => (servers.pop() as Server).close(() => resolve()));
    const error = await poolFor(`http://user:secret@127.0.0.1:${port}/key123`)
      .post('{}', 5_000)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Http1Error);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect((error as Error).message).not.toMatch(/secret|key123/);
    // Nothing can have reached a server.
    expect((error as Http1Error).maybeDelivered).toBe(false);
  });

  it('speaks TLS to an https URL', async () => {
    // A throwaway self-signed certificate; the pool checks certificates like node:https, so this one
    // is accepted through Node's own switch for the duration of the test.
    const dir = mkdtempSync(join(tmpdir(), 'http1-pool-tls-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-subj',
          '/CN=localhost',
          '-days',
          '1',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
      const server = createHttpsServer(
        { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
        (request, response) => {
          const chunks: Buffer[] = [];
          request.on('data', (chunk: Buffer) => chunks.push(chunk));
          request.on('end', () => response.end(`{"over":"tls","got":${Buffer.concat(chunks).toString()}}`));
        },
      );
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as { port: number };
      const pool = poolFor(`https://localhost:${port}/`);
      const refused = await pool.post('{"n":0}', 5_000).catch((caught: unknown) => caught);
      expect((refused as Error).message).toMatch(/self[- ]signed/i);
      const before = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
      try {
        expect(await pool.post('{"n":1}', 5_000)).toEqual({
          status: 200,
          body: '{"over":"tls","got":{"n":1}}',
        });
        expect((await pool.post('{"n":2}', 5_000)).body).toBe('{"over":"tls","got":{"n":2}}');
      } finally {
        if (before === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
        else process.env.NODE_TLS_REJECT_UNAUTHORIZED = before;
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
