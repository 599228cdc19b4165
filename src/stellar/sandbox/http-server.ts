import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { RpcParamsError } from './errors.ts';
import { friendbot } from './friendbot.ts';
import { RPC_METHODS, type RpcContext } from './rpc-methods.ts';

export interface SandboxLogger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

// Browser dApps (wallet extensions, web UIs) call RPC and Friendbot cross-origin, as with stellar-rpc.
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, authorization, x-client-name, x-client-version',
};

/** Request bodies above this are refused; the largest legit body is a wasm upload (~172 KB). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body exceeds ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...CORS,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError(MAX_BODY_BYTES);
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

interface JsonRpcRequest {
  jsonrpc?: string;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

function handleRpc(ctx: RpcContext, msg: JsonRpcRequest, logger: SandboxLogger): unknown {
  const id = msg.id ?? null;
  const method = typeof msg.method === 'string' ? RPC_METHODS[msg.method] : undefined;
  if (!method)
    return {
      jsonrpc: '2.0',
      id,
      error: { code: -32601, message: `method not found: ${String(msg.method)}` },
    };
  try {
    const params = (msg.params ?? {}) as Record<string, unknown>;
    return { jsonrpc: '2.0', id, result: method(ctx, params) };
  } catch (e) {
    if (e instanceof RpcParamsError)
      return { jsonrpc: '2.0', id, error: { code: -32602, message: e.message } };
    logger.error(`soroban sandbox: ${String(msg.method)} failed: ${(e as Error).stack ?? String(e)}`);
    return { jsonrpc: '2.0', id, error: { code: -32603, message: (e as Error).message } };
  }
}

export function createSandboxServer(ctx: RpcContext, logger: SandboxLogger): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const run = async () => {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, CORS);
        res.end();
        return;
      }
      if (url.pathname === '/friendbot' && (req.method === 'GET' || req.method === 'POST')) {
        const reply = await friendbot(ctx.node, url.searchParams.get('addr') ?? '', ctx.closeNow);
        send(res, reply.status, reply.body);
        return;
      }
      if (req.method === 'POST' && (url.pathname === '/' || url.pathname === '/rpc')) {
        let msg: unknown;
        try {
          msg = JSON.parse(await readBody(req));
        } catch (e) {
          if (e instanceof BodyTooLargeError) {
            send(res, 413, { jsonrpc: '2.0', id: null, error: { code: -32600, message: e.message } });
            return;
          }
          send(res, 200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
          return;
        }
        const reply = Array.isArray(msg)
          ? msg.map((m) => handleRpc(ctx, m as JsonRpcRequest, logger))
          : handleRpc(ctx, msg as JsonRpcRequest, logger);
        send(res, 200, reply);
        return;
      }
      send(res, 404, { error: 'not found' });
    };
    run().catch((e: unknown) => {
      logger.error(`soroban sandbox: request failed: ${(e as Error).stack ?? String(e)}`);
      if (!res.headersSent) send(res, 500, { error: (e as Error).message });
    });
  });
}
