import { Agent, request } from 'node:http';

export type HttpAnswer = { status: number; text: string };

export type HttpClient = {
  name: string;
  post(url: string, body: string, headers?: Record<string, string>): Promise<HttpAnswer>;
  get(url: string, headers?: Record<string, string>): Promise<HttpAnswer>;
  close(): void;
};

/**
 * node:http with a keep-alive agent sized to the concurrency: one socket per in-flight request and no
 * reconnects, so neither the service nor anvil pays for connection setup during a measurement.
 */
export function nodeHttpClient(maxSockets: number): HttpClient {
  const agent = new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  const send = (method: string, url: string, body: string | undefined, headers: Record<string, string>) =>
    new Promise<HttpAnswer>((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          agent,
          headers: {
            ...headers,
            ...(body === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return {
    name: 'node:http (keep-alive Agent)',
    post: (url, body, headers = {}) => send('POST', url, body, headers),
    get: (url, headers = {}) => send('GET', url, undefined, headers),
    close: () => agent.destroy(),
  };
}

/** Node's built-in fetch (undici, keep-alive by default): selectable with `--client=fetch` to compare. */
export function fetchClient(): HttpClient {
  const send = async (
    method: string,
    url: string,
    body: string | undefined,
    headers: Record<string, string>,
  ) => {
    const response = await fetch(url, {
      method,
      body,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    });
    return { status: response.status, text: await response.text() };
  };
  return {
    name: 'fetch (undici)',
    post: (url, body, headers = {}) => send('POST', url, body, headers),
    get: (url, headers = {}) => send('GET', url, undefined, headers),
    close: () => {},
  };
}
