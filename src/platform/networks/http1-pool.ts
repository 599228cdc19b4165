import { type Socket, connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/**
 * A failure to get an answer from the server: `retryable` when a reused connection was closed under
 * us, `timedOut` when the deadline passed, `maybeDelivered` when the request went out on a connected
 * socket, so the server may have read and acted on it (a refused or unfinished connection delivers
 * nothing). A non-idempotent call must not be taken for "not done" when it is set.
 */
export class Http1Error extends Error {
  override name = 'Http1Error';
  readonly retryable: boolean;
  readonly timedOut: boolean;
  readonly maybeDelivered: boolean;
  constructor(
    message: string,
    context: { retryable?: boolean; timedOut?: boolean; maybeDelivered?: boolean } = {},
  ) {
    super(message);
    this.retryable = context.retryable ?? false;
    this.timedOut = context.timedOut ?? false;
    this.maybeDelivered = context.maybeDelivered ?? false;
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
      if (!Number.isInteger(size) || size < 0)
        throw new Http1Error('malformed chunked response', { maybeDelivered: true });
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

/** Joins the chunks that arrived since the last read onto `data`. */
function join(connection: Connection): void {
  if (connection.pending.length === 0) return;
  connection.data =
    connection.data.length === 0 && connection.pending.length === 1
      ? (connection.pending[0] as Buffer)
      : Buffer.concat([connection.data, ...connection.pending]);
  connection.pending = [];
}

/** One connection and the exchange under way on it, if any; its listeners are attached once. */
type Connection = {
  socket: Socket;
  /** Whether it has answered before (a close before any answer then is the server's keep-alive end). */
  reused: boolean;
  /** Whether the socket connected (TLS: finished its handshake): only then can a request reach the server. */
  connected: boolean;
  waiter: Waiter | undefined;
  deadline: NodeJS.Timeout | undefined;
  /** What has arrived so far, joined only when it is read (joining on every chunk is quadratic). */
  data: Buffer;
  pending: Buffer[];
  received: number;
  /** Where the body starts in `data`, once the headers are read; -1 before. */
  bodyStart: number;
  status: number;
  keepAlive: boolean;
  framing: { contentLength: number | undefined; chunked: boolean };
};

const EMPTY = Buffer.alloc(0);
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})/;
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*([^\r]*)/i;
const CHUNKED = /\r\ntransfer-encoding:[^\r]*chunked/i;
const CONNECTION_CLOSE = /\r\nconnection:[^\r]*close/i;

/**
 * HTTP/1.1 POSTs of JSON to one URL over a small pool of kept-alive sockets, one request in flight per
 * socket. It does only what a JSON-RPC client needs (fixed headers, Content-Length or chunked answers)
 * and so costs a fraction of `node:http`'s ClientRequest and Agent per call, which were most of the
 * client side of a proxied node call. The URL's credentials, if any, go as Basic authorization.
 */
export class Http1Pool {
  readonly #connect: () => Socket;
  readonly #secure: boolean;
  readonly #head: string;
  readonly #maxSockets: number;
  readonly #idle: Connection[] = [];
  readonly #queue: Waiter[] = [];
  #open = 0;
  #closed = false;

  constructor(url: URL, options: { maxSockets?: number } = {}) {
    const secure = url.protocol === 'https:';
    this.#secure = secure;
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
      if (this.#closed) {
        reject(new Http1Error('the connection pool is closed'));
        return;
      }
      this.#queue.push({ body, timeoutMs, resolve, reject });
      this.#next();
    });
  }

  close(): void {
    this.#closed = true;
    for (const connection of this.#idle.splice(0)) connection.socket.destroy();
    for (const waiter of this.#queue.splice(0))
      waiter.reject(new Http1Error('the connection pool is closed'));
  }

  /** Hands a free connection, or a new one, to the next waiting request. */
  #next(): void {
    if (this.#closed || this.#queue.length === 0) return;
    let connection = this.#idle.pop();
    if (!connection) {
      if (this.#open >= this.#maxSockets) return;
      connection = this.#newConnection();
    }
    this.#start(connection, this.#queue.shift() as Waiter);
  }

  #newConnection(): Connection {
    const socket = this.#connect();
    this.#open++;
    socket.setNoDelay(true);
    const connection: Connection = {
      socket,
      reused: false,
      connected: false,
      waiter: undefined,
      deadline: undefined,
      data: EMPTY,
      pending: [],
      received: 0,
      bodyStart: -1,
      status: 0,
      keepAlive: true,
      framing: { contentLength: undefined, chunked: false },
    };
    socket.once(this.#secure ? 'secureConnect' : 'connect', () => {
      connection.connected = true;
    });
    socket.on('data', (chunk: Buffer) => this.#onData(connection, chunk));
    socket.on('end', () => this.#onEnd(connection));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      this.#fail(
        connection,
        new Http1Error(`connection failed: ${error.message}`, {
          retryable:
            connection.reused &&
            connection.received === 0 &&
            (error.code === 'ECONNRESET' || error.code === 'EPIPE'),
          maybeDelivered: connection.connected,
        }),
      ),
    );
    socket.on('close', () => {
      this.#fail(
        connection,
        new Http1Error('the server closed the connection', {
          retryable: connection.reused && connection.received === 0,
          maybeDelivered: connection.connected,
        }),
      );
      this.#open--;
      const index = this.#idle.indexOf(connection);
      if (index >= 0) this.#idle.splice(index, 1);
      this.#next();
    });
    return connection;
  }

  #start(connection: Connection, waiter: Waiter): void {
    const { socket } = connection;
    if (socket.destroyed || !socket.writable) {
      waiter.reject(new Http1Error('the connection was closed', { retryable: connection.reused }));
      this.#next();
      return;
    }
    socket.ref();
    connection.waiter = waiter;
    connection.data = EMPTY;
    connection.pending = [];
    connection.received = 0;
    connection.bodyStart = -1;
    connection.deadline = setTimeout(
      () =>
        this.#fail(
          connection,
          new Http1Error(`no answer within ${waiter.timeoutMs} ms`, {
            timedOut: true,
            maybeDelivered: connection.connected,
          }),
        ),
      waiter.timeoutMs,
    );
    socket.write(`${this.#head}${Buffer.byteLength(waiter.body)}\r\n\r\n${waiter.body}`);
  }

  /** Ends the exchange under way with an answer; the connection goes back to the pool or is closed. */
  #answer(connection: Connection, answer: Http1Answer): void {
    const waiter = connection.waiter as Waiter;
    clearTimeout(connection.deadline);
    connection.waiter = undefined;
    connection.reused = true;
    connection.data = EMPTY;
    connection.pending = [];
    if (!connection.keepAlive || this.#closed) connection.socket.destroy();
    else {
      // An idle connection does not keep the process alive (as node:http's Agent).
      connection.socket.unref();
      this.#idle.push(connection);
      this.#next();
    }
    waiter.resolve(answer);
  }

  /** Ends the exchange under way, if any, with an error, and closes the connection. */
  #fail(connection: Connection, error: Http1Error): void {
    const waiter = connection.waiter;
    if (!waiter) return;
    clearTimeout(connection.deadline);
    connection.waiter = undefined;
    connection.socket.destroy();
    waiter.reject(error);
  }

  /** Reads the status line and the three headers that frame the body; false while incomplete. */
  #readHead(connection: Connection): boolean {
    const { data, framing } = connection;
    const end = data.indexOf(HEADER_END);
    if (end < 0) {
      if (data.length > MAX_HEADER_BYTES)
        throw new Http1Error('response headers too large', { maybeDelivered: true });
      return false;
    }
    const head = data.toString('latin1', 0, end);
    const statusLine = STATUS_LINE.exec(head);
    if (!statusLine) throw new Http1Error('not an HTTP/1.x response', { maybeDelivered: true });
    connection.status = Number(statusLine[2]);
    const length = CONTENT_LENGTH.exec(head)?.[1]?.trim();
    framing.contentLength = length === undefined ? undefined : Number(length);
    if (framing.contentLength !== undefined && !Number.isSafeInteger(framing.contentLength))
      throw new Http1Error('malformed Content-Length', { maybeDelivered: true });
    framing.chunked = CHUNKED.test(head);
    // A body delimited by the end of the connection cannot be followed by another request.
    connection.keepAlive =
      statusLine[1] === '1' &&
      !CONNECTION_CLOSE.test(head) &&
      (framing.chunked || framing.contentLength !== undefined);
    connection.bodyStart = end + 4;
    return true;
  }

  #onData(connection: Connection, chunk: Buffer): void {
    if (!connection.waiter) {
      // Bytes nobody asked for: this connection can no longer be trusted.
      connection.socket.destroy();
      return;
    }
    connection.pending.push(chunk);
    connection.received += chunk.length;
    const { framing } = connection;
    // A body of known length is joined once, when all of it is there.
    if (
      connection.bodyStart >= 0 &&
      !framing.chunked &&
      (framing.contentLength === undefined ||
        connection.received < connection.bodyStart + framing.contentLength)
    )
      return;
    join(connection);
    try {
      for (;;) {
        if (connection.bodyStart < 0 && !this.#readHead(connection)) return;
        if (connection.status >= 200) break;
        // 1xx answers (100 Continue) precede the real one.
        connection.data = connection.data.subarray(connection.bodyStart);
        connection.received = connection.data.length;
        connection.bodyStart = -1;
      }
      const body = completeBody(connection.data, connection.bodyStart, connection.framing);
      if (body === undefined) return;
      // Bytes past the declared length belong to no request: the connection is not reused.
      if (!framing.chunked && connection.data.length > connection.bodyStart + (framing.contentLength ?? 0))
        connection.keepAlive = false;
      this.#answer(connection, { status: connection.status, body });
    } catch (error) {
      this.#fail(connection, error as Http1Error);
    }
  }

  #onEnd(connection: Connection): void {
    const { framing } = connection;
    if (
      connection.waiter &&
      connection.bodyStart >= 0 &&
      !framing.chunked &&
      framing.contentLength === undefined
    ) {
      connection.keepAlive = false;
      join(connection);
      this.#answer(connection, {
        status: connection.status,
        body: connection.data.toString('utf8', connection.bodyStart),
      });
    }
  }
}
