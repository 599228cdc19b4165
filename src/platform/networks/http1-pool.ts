import { type Socket, connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** A failure to get an answer from the server; `retryable` when a reused connection was closed under us. */
export class Http1Error extends Error {
  override name = 'Http1Error';
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
  }
}

export type Http1Answer = { status: number; body: string };

type Waiter = {
  body: string;
  timeoutMs: number;
  resolve: (answer: Http1Answer) => void;
  reject: (error: Error) => void;
};

const HEADER_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');
/** A header block larger than this is not an HTTP server we want to talk to. */
const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Where a response's body ends in `data` (headers and body so far), once it can be told: the body as
 * text, or `undefined` while more bytes are needed. Throws on a malformed response.
 */
function completeBody(
  data: Buffer,
  bodyStart: number,
  framing: { contentLength: number | undefined; chunked: boolean },
): string | undefined {
  if (framing.chunked) {
    const parts: Buffer[] = [];
    let at = bodyStart;
    for (;;) {
      const lineEnd = data.indexOf(CRLF, at);
      if (lineEnd < 0) return undefined;
      const size = Number.parseInt(data.toString('latin1', at, lineEnd).split(';')[0] as string, 16);
      if (!Number.isInteger(size) || size < 0) throw new Http1Error('malformed chunked response');
      if (size === 0) {
        // Trailers, if any, end with an empty line.
        const trailersEnd = data.indexOf(CRLF, lineEnd + 2);
        if (trailersEnd < 0) return undefined;
        if (trailersEnd !== lineEnd + 2 && data.indexOf(HEADER_END, lineEnd) < 0) return undefined;
        return Buffer.concat(parts).toString('utf8');
      }
      const chunkStart = lineEnd + 2;
      if (data.length < chunkStart + size + 2) return undefined;
      parts.push(data.subarray(chunkStart, chunkStart + size));
      at = chunkStart + size + 2;
    }
  }
  if (framing.contentLength === undefined) return undefined; // delimited by the end of the connection
  if (data.length < bodyStart + framing.contentLength) return undefined;
  return data.toString('utf8', bodyStart, bodyStart + framing.contentLength);
}

/**
 * HTTP/1.1 POSTs of JSON to one URL over a small pool of kept-alive sockets, one request in flight per
 * socket. It does only what a JSON-RPC client needs (fixed headers, Content-Length or chunked answers)
 * and so costs a fraction of `node:http`'s ClientRequest and Agent per call, which were most of the
 * client side of a proxied node call. The URL's credentials, if any, go as Basic authorization.
 */
export class Http1Pool {
  readonly #connect: () => Socket;
  readonly #head: string;
  readonly #maxSockets: number;
  readonly #idle: Socket[] = [];
  readonly #queue: Waiter[] = [];
  #open = 0;
  #closed = false;

  constructor(url: URL, options: { maxSockets?: number } = {}) {
    const secure = url.protocol === 'https:';
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(url.port || (secure ? 443 : 80));
    this.#connect = secure
      ? () => tlsConnect({ host, port, servername: host, ALPNProtocols: ['http/1.1'] })
      : () => tcpConnect({ host, port });
    this.#maxSockets = options.maxSockets ?? 64;
    const auth =
      url.username || url.password
        ? `Authorization: Basic ${Buffer.from(
            `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`,
          ).toString('base64')}\r\n`
        : '';
    this.#head =
      `POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n${auth}` +
      'Content-Type: application/json\r\nConnection: keep-alive\r\nContent-Length: ';
  }

  /** Posts `body`; fails with an Http1Error when no whole answer came within `timeoutMs`. */
  post(body: string, timeoutMs: number): Promise<Http1Answer> {
    return new Promise((resolve, reject) => {
      const waiter = { body, timeoutMs, resolve, reject };
      if (this.#closed) {
        reject(new Http1Error('the connection pool is closed'));
        return;
      }
      const socket = this.#idle.pop();
      if (socket) this.#exchange(socket, true, waiter);
      else if (this.#open < this.#maxSockets) this.#exchange(this.#newSocket(), false, waiter);
      else this.#queue.push(waiter);
    });
  }

  close(): void {
    this.#closed = true;
    for (const socket of this.#idle.splice(0)) socket.destroy();
    for (const waiter of this.#queue.splice(0))
      waiter.reject(new Http1Error('the connection pool is closed'));
  }

  #newSocket(): Socket {
    const socket = this.#connect();
    this.#open++;
    socket.setNoDelay(true);
    socket.once('close', () => {
      this.#open--;
      const index = this.#idle.indexOf(socket);
      if (index >= 0) this.#idle.splice(index, 1);
      this.#next();
    });
    // An idle socket's error is followed by 'close'; one in use is handled by its exchange.
    socket.on('error', () => {});
    return socket;
  }

  /** Hands a free socket, or a new one, to the next waiting request. */
  #next(): void {
    if (this.#closed) return;
    const waiter = this.#queue.shift();
    if (!waiter) return;
    const socket = this.#idle.pop();
    if (socket) this.#exchange(socket, true, waiter);
    else if (this.#open < this.#maxSockets) this.#exchange(this.#newSocket(), false, waiter);
    else this.#queue.unshift(waiter);
  }

  #release(socket: Socket, keepAlive: boolean): void {
    if (!keepAlive || this.#closed || socket.destroyed) {
      socket.destroy();
      return;
    }
    const waiter = this.#queue.shift();
    if (waiter) this.#exchange(socket, true, waiter);
    else {
      // An idle connection does not keep the process alive (as node:http's Agent).
      socket.unref();
      this.#idle.push(socket);
    }
  }

  #exchange(socket: Socket, reused: boolean, waiter: Waiter): void {
    socket.ref();
    let data: Buffer = Buffer.alloc(0);
    let bodyStart = -1;
    let status = 0;
    let keepAlive = true;
    const framing: { contentLength: number | undefined; chunked: boolean } = {
      contentLength: undefined,
      chunked: false,
    };
    let settled = false;
    const finish = (error: Error | undefined, answer?: Http1Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onClose);
      socket.off('error', onError);
      if (error) {
        socket.destroy();
        waiter.reject(error);
      } else {
        this.#release(socket, keepAlive);
        waiter.resolve(answer as Http1Answer);
      }
    };
    const deadline = setTimeout(
      () => finish(new Http1Error(`no answer within ${waiter.timeoutMs} ms`)),
      waiter.timeoutMs,
    );
    const readHead = (): boolean => {
      const end = data.indexOf(HEADER_END);
      if (end < 0) {
        if (data.length > MAX_HEADER_BYTES) throw new Http1Error('response headers too large');
        return false;
      }
      const lines = data.toString('latin1', 0, end).split('\r\n');
      const statusLine = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0] ?? '');
      if (!statusLine) throw new Http1Error('not an HTTP/1.x response');
      status = Number(statusLine[2]);
      keepAlive = statusLine[1] === '1';
      for (let i = 1; i < lines.length; i++) {
        const line = lines[i] as string;
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (name === 'content-length') framing.contentLength = Number(value);
        else if (name === 'transfer-encoding') framing.chunked = /chunked/i.test(value);
        else if (name === 'connection') keepAlive = !/close/i.test(value);
      }
      if (framing.contentLength !== undefined && !Number.isSafeInteger(framing.contentLength))
        throw new Http1Error('malformed Content-Length');
      // A body delimited by the end of the connection cannot be followed by another request.
      if (!framing.chunked && framing.contentLength === undefined) keepAlive = false;
      bodyStart = end + 4;
      return true;
    };
    const onData = (chunk: Buffer) => {
      data = data.length === 0 ? chunk : Buffer.concat([data, chunk]);
      try {
        if (bodyStart < 0 && !readHead()) return;
        // 1xx answers (100 Continue) precede the real one.
        if (status >= 100 && status < 200) {
          data = data.subarray(bodyStart);
          bodyStart = -1;
          framing.contentLength = undefined;
          framing.chunked = false;
          if (data.length > 0) onData(Buffer.alloc(0));
          return;
        }
        const body = completeBody(data, bodyStart, framing);
        if (body !== undefined) finish(undefined, { status, body });
      } catch (error) {
        finish(error as Error);
      }
    };
    const onEnd = () => {
      if (bodyStart >= 0 && !framing.chunked && framing.contentLength === undefined) {
        keepAlive = false;
        finish(undefined, { status, body: data.toString('utf8', bodyStart) });
      } else onClose();
    };
    const onClose = () =>
      finish(new Http1Error('the server closed the connection', reused && data.length === 0));
    const onError = (error: NodeJS.ErrnoException) =>
      finish(
        new Http1Error(
          `connection failed: ${error.message}`,
          reused && data.length === 0 && (error.code === 'ECONNRESET' || error.code === 'EPIPE'),
        ),
      );
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('close', onClose);
    socket.on('error', onError);
    if (socket.destroyed || !socket.writable) {
      finish(new Http1Error('the connection was closed', reused));
      return;
    }
    socket.write(`${this.#head}${Buffer.byteLength(waiter.body)}\r\n\r\n${waiter.body}`);
  }
}
