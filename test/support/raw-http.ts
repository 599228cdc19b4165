import { connect } from 'node:net';

export type RawAnswer = { status: number; headers: Record<string, string>; text: string };

/**
 * Sends `request` exactly as given (request line, headers and body bytes, as a client of another
 * language would write them) and reads one HTTP/1.1 answer.
 */
export function rawRequest(baseUrl: string, request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let buffer = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer within 30 s'));
    }, 30_000);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString();
      const [statusLine, ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      if (buffer.length - end - 4 < length) return;
      clearTimeout(timer);
      socket.end();
      resolve({
        status: Number(statusLine?.split(' ')[1]),
        headers,
        text: buffer.subarray(end + 4, end + 4 + length).toString(),
      });
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.write(request);
  });
}

/** The bytes of a request with a body, Content-Length computed. */
export function withBody(head: string, body: string): string {
  return `${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** Python's `json.dumps` with its default separators (", " and ": "), which `requests` uses for `json=`. */
export function pythonJsonDumps(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => `${JSON.stringify(key)}: ${pythonJsonDumps(item)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value);
}
