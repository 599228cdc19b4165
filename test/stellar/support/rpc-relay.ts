import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

type Held = { body: Buffer; response: ServerResponse };

/**
 * A relay in front of a Soroban RPC (and its friendbot) that can hold `sendTransaction` requests:
 * the client waits, and the network has not seen the transaction, until the test releases them
 * (forwarding them, as a slow network that still got them, or dropping them).
 */
export type RpcRelay = {
  url: string;
  holdSends(hold: boolean): void;
  /** Answers calls of `method` with this HTTP status and a text body, unread by the network (undefined: forward). */
  refuse(method: string, status: number | undefined): void;
  /** How many calls of `method` reached the relay (held and refused ones too). */
  calls(method: string): number;
  /** Forwards (true) or drops (false) the held requests. */
  release(forward: boolean): Promise<void>;
  held(): number;
  stop(): Promise<void>;
};

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The JSON-RPC method a request body calls (undefined: not a single JSON-RPC call). */
function jsonRpcMethod(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString()) as { method?: unknown };
    return typeof parsed.method === 'string' ? parsed.method : undefined;
  } catch {
    return undefined;
  }
}

export async function startRpcRelay(target: string): Promise<RpcRelay> {
  let holding = false;
  const refusing = new Map<string, number>();
  const callCounts = new Map<string, number>();
  let held: Held[] = [];
  const forward = async (method: string, path: string, body: Buffer, response: ServerResponse | null) => {
    const answer = await fetch(new URL(path, target), {
      method,
      headers: { 'content-type': 'application/json' },
      body: method === 'GET' ? undefined : body,
    });
    const text = await answer.text();
    if (response && !response.destroyed)
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
  };
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const method = request.method === 'POST' ? jsonRpcMethod(body) : undefined;
      const isSend = method === 'sendTransaction';
      if (method !== undefined) callCounts.set(method, (callCounts.get(method) ?? 0) + 1);
      const refusal = method === undefined ? undefined : refusing.get(method);
      if (refusal !== undefined) {
        response.writeHead(refusal, { 'content-type': 'text/plain' }).end('refused by the relay');
        return;
      }
      if (isSend && holding) {
        held.push({ body, response });
        return;
      }
      await forward(request.method ?? 'GET', request.url ?? '/', body, response);
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    holdSends: (hold) => {
      holding = hold;
    },
    refuse: (method, status) => {
      if (status === undefined) refusing.delete(method);
      else refusing.set(method, status);
    },
    calls: (method) => callCounts.get(method) ?? 0,
    held: () => held.length,
    release: async (send) => {
      const list = held;
      held = [];
      for (const item of list) {
        if (send) await forward('POST', '/', item.body, item.response);
        else item.response.destroy();
      }
    },
    stop: async () => {
      for (const item of held) item.response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
