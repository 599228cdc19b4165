import { Agent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { custom, type Transport } from 'viem';

export class JsonRpcError extends Error {
  override name = 'JsonRpcError';
  readonly code: number;
  readonly data: unknown;
  constructor(error: { code: number; message: string; data?: unknown }) {
    super(error.message);
    this.code = error.code;
    this.data = error.data;
  }
}

export class RpcTransportError extends Error {
  override name = 'RpcTransportError';
}

type JsonRpcAnswer = { result?: unknown; error?: { code: number; message: string; data?: unknown } };

/**
 * JSON-RPC over node:http with a keep-alive connection pool. viem's `http` transport goes through
 * fetch, whose per-request cost (Request objects, web streams, abort signals) was the largest part of
 * a proxied view call; plain sockets that stay open are several times cheaper. The URL never appears
 * in errors (it may carry an API key).
 */
export function keepAliveTransport(
  url: string,
  options: { timeoutMs?: number; maxSockets?: number } = {},
): Transport {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const agent = secure
    ? new HttpsAgent({ keepAlive: true, maxSockets: options.maxSockets ?? 64 })
    : new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 64 });
  const send = secure ? httpsRequest : httpRequest;
  let id = 0;
  const post = (body: string) =>
    new Promise<JsonRpcAnswer>((resolve, reject) => {
      const req = send(
        target,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          timeout: options.timeoutMs ?? 15_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            try {
              resolve(JSON.parse(text) as JsonRpcAnswer);
            } catch {
              reject(
                new RpcTransportError(
                  `node answered HTTP ${res.statusCode} with a body that is not JSON-RPC`,
                ),
              );
            }
          });
          res.on('error', (error) =>
            reject(new RpcTransportError(`node connection failed: ${error.message}`)),
          );
        },
      );
      req.on('timeout', () => req.destroy(new RpcTransportError('node request timed out')));
      req.on('error', (error) => reject(new RpcTransportError(`node request failed: ${error.message}`)));
      req.end(body);
    });
  return custom(
    {
      async request({ method, params }: { method: string; params?: unknown }) {
        const answer = await post(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: params ?? [] }));
        if (answer.error) throw new JsonRpcError(answer.error);
        return answer.result;
      },
    },
    { retryCount: 2 },
  );
}
