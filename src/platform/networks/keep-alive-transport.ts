import { custom, type Transport } from 'viem';
import { type Http1Answer, type Http1Error, Http1Pool } from './http1-pool.ts';

export class JsonRpcError extends Error {
  override name = 'JsonRpcError';
  readonly code: number;
  readonly data: unknown;
  /** The HTTP status of the answer when it was not a success (a provider's 429 carries its own code). */
  readonly httpStatus: number | undefined;
  constructor(error: { code: number; message: string; data?: unknown }, httpStatus?: number) {
    super(error.message);
    this.code = error.code;
    this.data = error.data;
    this.httpStatus = httpStatus !== undefined && httpStatus >= 400 ? httpStatus : undefined;
  }
}

export class RpcTransportError extends Error {
  override name = 'RpcTransportError';
  /** The HTTP status when the node answered, but not with JSON-RPC (a wrong URL or key, a gateway). */
  readonly httpStatus: number | undefined;
  /**
   * Whether the node may have read and acted on the request though no JSON-RPC answer came back: it
   * went out on a connected socket (then no answer in time, or the connection dropped), or a server
   * behind a gateway failed (HTTP 5xx). False when nothing can have reached the node: a refused
   * connection, or an HTTP refusal such as 401, 404 or 429.
   */
  readonly maybeDelivered: boolean;
  /** Whether no answer came within the deadline (undefined when the node answered something). */
  readonly timedOut: boolean | undefined;
  constructor(
    message: string,
    context: { httpStatus?: number; maybeDelivered?: boolean; timedOut?: boolean } = {},
  ) {
    super(message);
    this.httpStatus = context.httpStatus;
    this.timedOut = context.timedOut;
    this.maybeDelivered =
      context.maybeDelivered ?? (context.httpStatus !== undefined && context.httpStatus >= 500);
  }
}

type JsonRpcAnswer = {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

type Pending = {
  id: number;
  method: string;
  params: unknown;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
};

/** How long a node call may take before it fails (ERROR_NODE_UNREACHABLE), unless configured. */
export const DEFAULT_RPC_TIMEOUT_MS = 10_000;

export type KeepAliveTransportOptions = {
  /** Deadline of one JSON-RPC request (a batch is one request). */
  timeoutMs?: number;
  maxSockets?: number;
  /**
   * Requests made in the same turn of the event loop go to the node as one JSON-RPC batch of at most
   * this many (1 = never batch). Under load this halves the node's and our own per-call cost; a node
   * that refuses batches is detected on the first refusal and then gets single requests.
   */
  maxBatchSize?: number;
};

/**
 * JSON-RPC over kept-alive HTTP/1.1 sockets (`Http1Pool`), batching concurrent calls. viem's `http`
 * transport goes through fetch, whose per-request cost (Request objects, web streams, abort signals)
 * was the largest part of a proxied view call; plain sockets that stay open are several times cheaper.
 * The URL never appears in errors (it may carry an API key).
 */
export function keepAliveTransport(url: string, options: KeepAliveTransportOptions = {}): Transport {
  const pool = new Http1Pool(new URL(url), { maxSockets: options.maxSockets ?? 64 });
  let maxBatchSize = Math.max(1, options.maxBatchSize ?? 1);
  let id = 0;
  let queue: Pending[] = [];
  let flushScheduled = false;

  const timeoutMs = options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
  /**
   * One retry, at once, only for a kept-alive connection the node closed before answering; a timeout
   * is never retried, so a call fails within `timeoutMs`.
   */
  const post = async (body: string): Promise<{ status: number; json: unknown }> => {
    let answer: Http1Answer;
    // A retried request counts as delivered if either try may have been.
    let firstMaybeDelivered = false;
    try {
      answer = await pool.post(body, timeoutMs).catch((error: Http1Error) => {
        if (!error.retryable) throw error;
        firstMaybeDelivered = error.maybeDelivered;
        return pool.post(body, timeoutMs);
      });
    } catch (error) {
      const failure = error as Http1Error;
      throw new RpcTransportError(
        failure.timedOut
          ? `node did not answer within ${timeoutMs} ms`
          : `node request failed: ${failure.message}`,
        {
          maybeDelivered: firstMaybeDelivered || failure.maybeDelivered === true,
          timedOut: failure.timedOut === true,
        },
      );
    }
    try {
      return { status: answer.status, json: JSON.parse(answer.body) };
    } catch {
      throw new RpcTransportError(`node answered HTTP ${answer.status} with a body that is not JSON-RPC`, {
        httpStatus: answer.status,
        // A success status means the node itself read the request; a 5xx, that a server behind may have.
        maybeDelivered: answer.status < 300 || answer.status >= 500,
      });
    }
  };

  /** The node's result resolves the call, its error rejects it: no further promise per call. */
  const settle = (call: Pending, answer: JsonRpcAnswer | null | undefined, httpStatus?: number) => {
    if (answer === null || typeof answer !== 'object') {
      call.reject(
        new RpcTransportError(`node answered ${call.method} with something that is not JSON-RPC`, {
          maybeDelivered: true,
        }),
      );
    } else if (answer.error) call.reject(new JsonRpcError(answer.error, httpStatus));
    else call.resolve(answer.result);
  };

  const single = (call: Pending) => {
    post(JSON.stringify({ jsonrpc: '2.0', id: call.id, method: call.method, params: call.params })).then(
      (answer) => settle(call, answer.json as JsonRpcAnswer, answer.status),
      call.reject,
    );
  };

  const batch = (calls: Pending[]) => {
    const body = JSON.stringify(
      calls.map((call) => ({ jsonrpc: '2.0', id: call.id, method: call.method, params: call.params })),
    );
    post(body).then(
      ({ status, json }) => {
        if (!Array.isArray(json)) {
          if (status === 429 || status >= 500) {
            // A refusal of this request (a provider's rate limit, a gateway's failure), not of batches:
            // every call of it fails with that answer, and batching stays on.
            const error = (json as JsonRpcAnswer | null)?.error;
            const refusal = error
              ? new JsonRpcError(error, status)
              : new RpcTransportError(`node answered HTTP ${status}`, { httpStatus: status });
            for (const call of calls) call.reject(refusal);
            return;
          }
          // The node does not take batches: from now on every call goes alone.
          maxBatchSize = 1;
          for (const call of calls) single(call);
          return;
        }
        const byId = new Map<unknown, JsonRpcAnswer>();
        for (const item of json as JsonRpcAnswer[]) byId.set(item?.id, item);
        for (const call of calls) {
          const item = byId.get(call.id);
          if (item) settle(call, item);
          else
            call.reject(
              new RpcTransportError(`node left call ${call.method} out of its batch answer`, {
                maybeDelivered: true,
              }),
            );
        }
      },
      (error: Error) => {
        for (const call of calls) call.reject(error);
      },
    );
  };

  const flush = () => {
    flushScheduled = false;
    const calls = queue;
    queue = [];
    for (let start = 0; start < calls.length; start += maxBatchSize) {
      const chunk = calls.slice(start, start + maxBatchSize);
      if (chunk.length === 1) single(chunk[0] as Pending);
      else batch(chunk);
    }
  };

  const enqueue = (method: string, params: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      const call = { id: ++id, method, params, resolve, reject };
      if (maxBatchSize === 1) {
        single(call);
        return;
      }
      queue.push(call);
      if (!flushScheduled) {
        flushScheduled = true;
        // setImmediate runs after the current I/O phase: every request parsed from the sockets that
        // were readable together joins the same batch, and a lone request waits for nothing.
        setImmediate(flush);
      }
    });

  return custom(
    {
      request: ({ method, params }: { method: string; params?: unknown }) => enqueue(method, params ?? []),
    },
    // Retries are the transport's (above): viem's would repeat a timed-out call and multiply the wait.
    { retryCount: 0 },
  );
}
