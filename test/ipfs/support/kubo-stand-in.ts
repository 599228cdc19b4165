import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import * as dagPb from '@ipld/dag-pb';
import { exporter } from 'ipfs-unixfs-exporter';
import { type ImportCandidate, importer } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import { base32 } from 'multiformats/bases/base32';
import { CID } from 'multiformats/cid';

export type KuboCall = { path: string; query: Record<string, string> };

export type KuboStandInOptions = {
  /** Imports with these settings whatever the request asks: a node whose config overrides the defaults. */
  forceCidVersion?: 0 | 1;
};

const keyOf = (cid: CID) => base32.encode(cid.multihash.bytes);

/**
 * A stand-in for a Kubo node's RPC (no Kubo binary can run here) that speaks its wire format: every call
 * a POST to `/api/v0/<command>?arg=…`, `add` taking multipart (folders as `application/x-directory`
 * parts, names URL-escaped paths) and answering one JSON object a line, errors as HTTP 500
 * `{"Message","Code","Type":"error"}`. It builds DAGs with the UnixFS importer as `ipfs add` does.
 */
export class KuboStandIn {
  readonly calls: KuboCall[] = [];
  readonly blocks = new Map<string, Uint8Array>();
  readonly pins = new Set<string>();
  #server: Server | undefined;
  url = '';

  constructor(private readonly options: KuboStandInOptions = {}) {}

  async start(): Promise<this> {
    this.#server = createServer((request, response) => {
      this.#handle(request, response).catch((error: Error) => this.#fail(response, error.message));
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise((resolve) => this.#server?.close(resolve));
  }

  /** `ipfs repo gc`: drops every block no pinned root reaches. */
  gc(): void {
    const live = new Set<string>();
    const walk = (cid: CID) => {
      const key = keyOf(cid);
      if (live.has(key)) return;
      live.add(key);
      const bytes = this.blocks.get(key);
      if (bytes && cid.code === dagPb.code) for (const link of dagPb.decode(bytes).Links) walk(link.Hash);
    };
    for (const pin of this.pins) walk(CID.parse(pin));
    for (const key of this.blocks.keys()) if (!live.has(key)) this.blocks.delete(key);
  }

  #store = {
    put: async (cid: CID, bytes: Uint8Array) => {
      this.blocks.set(keyOf(cid), bytes);
      return cid;
    },
    get: async function* (this: KuboStandIn, cid: CID) {
      const bytes = this.blocks.get(keyOf(cid));
      if (!bytes) throw new Error(`block was not found locally (offline): ipld: could not find ${cid}`);
      yield bytes;
    }.bind(this),
  };

  #fail(response: ServerResponse, message: string, status = 500): void {
    if (response.headersSent) return void response.destroy();
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ Message: message, Code: 0, Type: 'error' }));
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const query = Object.fromEntries(url.searchParams);
    this.calls.push({ path: url.pathname, query });
    if (request.method !== 'POST') {
      response.writeHead(405);
      return void response.end(`${request.method} not allowed`);
    }
    switch (url.pathname) {
      case '/api/v0/add':
        return this.#add(request, response, query);
      case '/api/v0/cat':
        return this.#cat(response, query);
      case '/api/v0/block/get': {
        const bytes = this.blocks.get(keyOf(CID.parse(query.arg ?? '')));
        if (!bytes)
          return this.#fail(
            response,
            `block was not found locally (offline): ipld: could not find ${query.arg}`,
          );
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        return void response.end(bytes);
      }
      case '/api/v0/pin/rm': {
        const cid = CID.parse(query.arg ?? '').toString();
        if (!this.pins.delete(cid)) return this.#fail(response, 'not pinned or pinned indirectly');
        response.writeHead(200, { 'content-type': 'application/json' });
        return void response.end(JSON.stringify({ Pins: [cid] }));
      }
      default:
        return this.#fail(response, `unknown command ${url.pathname}`, 404);
    }
  }

  async #add(
    request: IncomingMessage,
    response: ServerResponse,
    query: Record<string, string>,
  ): Promise<void> {
    const form = await new Request(`${this.url}/`, {
      method: 'POST',
      headers: request.headers as Record<string, string>,
      body: Readable.toWeb(request) as ReadableStream,
      duplex: 'half',
    } as RequestInit).formData();
    const candidates: ImportCandidate[] = [];
    for (const value of form.getAll('file')) {
      const part = value as File;
      const path = decodeURIComponent(part.name);
      if (part.type === 'application/x-directory') candidates.push({ path });
      else candidates.push({ path, content: new Uint8Array(await part.arrayBuffer()) });
    }
    const cidVersion = this.options.forceCidVersion ?? (Number(query['cid-version'] ?? 0) as 0 | 1);
    const rawLeaves = query['raw-leaves'] === undefined ? cidVersion === 1 : query['raw-leaves'] === 'true';
    const chunk = Number(/^size-(\d+)$/.exec(query.chunker ?? 'size-262144')?.[1] ?? 262144);
    const lines: string[] = [];
    let root: CID | undefined;
    for await (const entry of importer(candidates, this.#store, {
      profile: 'unixfs-v0-2015',
      cidVersion,
      rawLeaves,
      chunker: fixedSize({ chunkSize: chunk }),
    })) {
      lines.push(
        JSON.stringify({
          Name: entry.path ?? entry.cid.toString(),
          Hash: entry.cid.toString(),
          Size: String(entry.size),
        }),
      );
      root = entry.cid;
    }
    if (root && query.pin !== 'false') this.pins.add(root.toString());
    response.writeHead(200, { 'content-type': 'application/json', 'x-chunked-output': '1' });
    response.end(`${lines.join('\n')}\n`);
  }

  async #cat(response: ServerResponse, query: Record<string, string>): Promise<void> {
    let entry: Awaited<ReturnType<typeof exporter>>;
    try {
      entry = await exporter(query.arg ?? '', this.#store);
    } catch (error) {
      return this.#fail(response, (error as Error).message);
    }
    if (entry.type !== 'file' && entry.type !== 'raw')
      return this.#fail(response, 'this dag node is a directory');
    const offset = Number(query.offset ?? 0);
    const length = query.length === undefined ? undefined : Number(query.length);
    response.writeHead(200, { 'content-type': 'text/plain', 'x-stream-output': '1' });
    for await (const chunk of entry.content({ offset, length })) response.write(chunk);
    response.end();
  }
}
