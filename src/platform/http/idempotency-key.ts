import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ChaingateError } from '../errors/chaingate-error.ts';
import type { Idempotency } from '../idempotency/idempotency.ts';

const keyField = (description: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: '^[!-~]+$', description }));

/**
 * The headers of a sending endpoint. `Idempotency-Key` is the IETF draft's name; `X-Idempotency-Key` is
 * thirdweb Engine's, taken too so its clients keep their retries safe when they move here.
 */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': keyField(
    'Makes a retry safe: a request that repeats a key this application used before sends nothing and ' +
      'answers the first request’s transaction again (the same txHash, and on EVM the same nonce; header ' +
      '`Idempotent-Replayed: true`), even when the first request got an error that said it may have been ' +
      'saved. While the first is still running, an EVM send waits for it and answers it; a Stellar ' +
      'submission, and an ERC-721 mint whose ipfsHash the first has claimed, answer 409 ' +
      'CG_ERR_IDEMPOTENCY_KEY_IN_USE (ask again). The same key with a different ' +
      'request (another endpoint, query or body; the PIN or code of a wallet left out) answers 409 ' +
      'CG_ERR_IDEMPOTENCY_KEY_REUSED. A transaction that ended with nothing sent or spent (an error that ' +
      'says retrying is safe) releases its key. 1–128 visible ASCII characters; kept with the transaction.',
  ),
  'x-idempotency-key': keyField('The same as `Idempotency-Key` (thirdweb Engine’s name).'),
});

/** The request's idempotency key, from either header; both with different values is a 400. */
export function idempotencyKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const standard = headers['idempotency-key'];
  const engine = headers['x-idempotency-key'];
  if (typeof standard === 'string' && typeof engine === 'string' && standard !== engine) {
    throw new ChaingateError(
      'CG_ERR_VALIDATION',
      'headers: Idempotency-Key and X-Idempotency-Key differ; send one of them',
      { context: { field: 'Idempotency-Key' } },
    );
  }
  const key = standard ?? engine;
  return typeof key === 'string' ? key : undefined;
}

/**
 * Never part of a fingerprint: a wallet's PIN or one-time code. A code changes between a request and
 * its retry, and the hash of a short PIN is easy to reverse.
 */
const SECRET_FIELDS = new Set(['pin']);

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
  return Object.fromEntries(entries.map(([name, field]) => [name, canonical(field)]));
}

function withoutSecrets(input: unknown): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input).filter(([name]) => !SECRET_FIELDS.has(name)));
}

/** Each keyed request's fingerprint, taken once: by the route's replay hook, then by its handler. */
const fingerprints = new WeakMap<FastifyRequest, Idempotency>();

/**
 * The request's key and fingerprint (SHA-256 of its route, query and body, in canonical key order and
 * without secrets), or undefined when it has no key. Read after validation, so aliases are resolved.
 */
export function idempotencyOf(request: FastifyRequest): Idempotency | undefined {
  const key = idempotencyKeyOf(request.headers);
  if (key === undefined) return undefined;
  const known = fingerprints.get(request);
  if (known) return known;
  const input = {
    route: request.routeOptions.url,
    query: canonical(withoutSecrets(request.query)),
    body: canonical(withoutSecrets(request.body)),
  };
  const idempotency = { key, fingerprint: createHash('sha256').update(JSON.stringify(input)).digest('hex') };
  fingerprints.set(request, idempotency);
  return idempotency;
}
