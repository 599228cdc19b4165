import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ChaingateError, quote } from '../platform/errors/chaingate-error.ts';
import { errorResponses } from '../platform/http/error-body.ts';
import { errorBody } from '../platform/http/error-handler.ts';
import { parseRange } from './byte-range.ts';
import { isActiveContent } from './content-type.ts';
import { type GatewayDirectory, readGateway } from './services/read-gateway.ts';

/** A year in seconds, as IPFS gateways send for immutable content. */
const CACHE_CONTROL = 'public, max-age=29030400, immutable';

/** `/ipfs/<cid>/<path…>` from the raw URL: CIDs are case-sensitive, whatever the router does to paths. */
function addressOf(request: FastifyRequest): { cid: string; path: string[] } {
  const segments = (request.url.split('?')[0] ?? '').split('/').filter(Boolean).slice(1);
  try {
    const [cid = '', ...path] = segments.map((segment) => decodeURIComponent(segment));
    if (!cid) throw new ChaingateError('CG_ERR_BAD_REQUEST', 'cid: missing; use /ipfs/<cid>');
    if (path.some((segment) => segment.includes('/'))) {
      throw new ChaingateError('CG_ERR_NOT_FOUND', 'no such path');
    }
    return { cid, path };
  } catch (error) {
    if (error instanceof ChaingateError) throw error;
    throw new ChaingateError('CG_ERR_BAD_REQUEST', 'path: invalid percent-encoding');
  }
}

/** True when `If-None-Match` names `etag` (or `*`); weak and strong forms compare equal. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim().replace(/^W\//, '');
    return value === '*' || value === etag || `"${value}"` === etag;
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function directoryListing(request: FastifyRequest, reply: FastifyReply, directory: GatewayDirectory) {
  const base = (request.url.split('?')[0] ?? '').replace(/\/+$/, '');
  const accept = request.headers.accept ?? '';
  if (/application\/json/.test(accept) && !/text\/html/.test(accept)) {
    reply.header('content-type', 'application/json; charset=utf-8');
    return Buffer.from(JSON.stringify({ cid: directory.cid.toString(), entries: directory.entries }));
  }
  const rows = directory.entries
    .map(
      (entry) =>
        `<li><a href="${escapeHtml(`${base}/${encodeURIComponent(entry.name)}`)}">${escapeHtml(entry.name)}</a> ` +
        `<small>${entry.size} bytes · ${escapeHtml(entry.cid)}</small></li>`,
    )
    .join('\n');
  reply.header('content-type', 'text/html; charset=utf-8');
  reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
  return Buffer.from(
    `<!doctype html><meta charset="utf-8"><title>${escapeHtml(base)}</title>` +
      `<h1>${escapeHtml(base)}</h1><ul>\n${rows}\n</ul>\n`,
  );
}

/**
 * The public IPFS gateway: `GET|HEAD /ipfs/<cid>[/<path>]`, no credentials (content addressed). Files
 * stream with their type, `ETag` = the CID, a year's immutable caching, `Range` (206/416) and
 * `If-None-Match` (304); a directory answers a listing (HTML, or JSON for `Accept: application/json`).
 */
export async function gatewayRoutes(app: FastifyInstance): Promise<void> {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/ipfs/*',
    schema: {
      tags: ['ipfs gateway'],
      summary: 'Read a file or a directory by CID (no credentials)',
      description:
        'Any CID form of a stored DAG: CIDv0 (`Qm…`) or CIDv1 (`bafy…`, base36 `k…`). A path after the ' +
        'CID walks directories. An unknown CID or path answers 404, a malformed CID 400. HTML and SVG ' +
        'are served with `Content-Security-Policy: sandbox` (the gateway shares the API’s origin).',
      security: [],
      response: errorResponses(['CG_ERR_NOT_FOUND', 'CG_ERR_RANGE_NOT_SATISFIABLE'], { credentials: false }),
    },
    handler: async (request, reply) => {
      const address = addressOf(request);
      const found = await readGateway(app.ipfs, address);
      const etag = `"${found.cid.toString()}"`;
      reply.header('etag', etag);
      reply.header('cache-control', CACHE_CONTROL);
      // The path as sent (still percent-encoded): a header carries no raw non-ASCII or control characters.
      reply.header('x-ipfs-path', (request.url.split('?')[0] ?? '').replace(/\/{2,}/g, '/'));
      reply.header('x-content-type-options', 'nosniff');
      reply.header('access-control-allow-origin', '*');
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
      if (found.kind === 'directory') {
        const body = directoryListing(request, reply, found);
        if (request.method === 'HEAD') return reply.header('content-length', body.length).send();
        return reply.send(body);
      }
      reply.header('content-type', found.contentType);
      reply.header('accept-ranges', 'bytes');
      if (isActiveContent(found.contentType)) reply.header('content-security-policy', 'sandbox');
      const range = parseRange(request.headers.range, found.size);
      if (range.kind === 'unsatisfiable') {
        reply.header('content-range', `bytes */${found.size}`);
        return reply
          .status(416)
          .header('content-type', 'application/json; charset=utf-8')
          .send(
            errorBody(
              'CG_ERR_RANGE_NOT_SATISFIABLE',
              `range: the file has ${found.size} bytes (${quote(request.headers.range)})`,
            ),
          );
      }
      const part = range.kind === 'part' ? { offset: range.offset, length: range.length } : undefined;
      if (part) {
        reply.status(206);
        reply.header('content-range', `bytes ${part.offset}-${part.offset + part.length - 1}/${found.size}`);
      }
      reply.header('content-length', part ? part.length : found.size);
      if (request.method === 'HEAD') return reply.send();
      return reply.send(Readable.from(found.read(part)));
    },
  });
}
