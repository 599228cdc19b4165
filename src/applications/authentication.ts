import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Queryable } from '../platform/db/database.ts';
import { ChaingateError } from '../platform/errors/chaingate-error.ts';
import { hashSecretToken, tokenMatchesHash } from './api-key.ts';
import { findApplicationById } from './applications.repository.ts';
import { type Application, toApplication } from './applications.service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Compared against when the application does not exist, so that answer takes as long as a wrong key.
const UNKNOWN_APPLICATION_HASH = hashSecretToken('chaingate: no such application');

export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const header = headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function applicationIdOf(headers: IncomingHttpHeaders): string | undefined {
  return headerValue(headers['x-application-svc']) ?? headerValue(headers['x-application-vkn']);
}

/** A presented key against the one verified before, in constant time. */
function sameKey(token: string, verified: Buffer): boolean {
  const presented = Buffer.from(token);
  return presented.length === verified.length && timingSafeEqual(presented, verified);
}

/**
 * Whether two strings are equal, in time that depends on their length only: no early exit at the first
 * difference, so an answer's timing does not tell how much of a guessed key was right. Cheaper than
 * `timingSafeEqual`, which needs both as buffers.
 */
function sameText(presented: string, known: string): boolean {
  if (presented.length !== known.length) return false;
  let difference = 0;
  for (let i = 0; i < known.length; i++) difference |= presented.charCodeAt(i) ^ known.charCodeAt(i);
  return difference === 0;
}

type CacheEntry = {
  hash: Uint8Array;
  application: Application;
  expiresAt: number;
  /** The key last verified against `hash`, for a constant-time comparison instead of a hash next time. */
  verified?: Buffer;
  /** The whole Authorization header that carried it, compared as it comes on the hot path. */
  verifiedHeader?: string;
};

/**
 * Checks `Authorization: Bearer <apiKey>` and `x-application-svc` (or its synonym `x-application-vkn`).
 * Rows are cached for a few seconds, which keeps the hot path off the store; a key rotated in this
 * process is dropped from the cache at once, one rotated by another process within `ttlMs`.
 */
export class ApplicationAuthenticator {
  readonly #cache = new Map<string, CacheEntry>();

  constructor(
    private readonly db: Queryable,
    private readonly ttlMs = 5_000,
  ) {}

  forget(applicationId: string): void {
    this.#cache.delete(applicationId);
  }

  /**
   * The application when its row is cached and these credentials are the key verified a moment ago,
   * else undefined (then `authenticate` decides): the hot path of every request, with no promise.
   */
  cachedApplication(headers: IncomingHttpHeaders): Application | undefined {
    const applicationId = applicationIdOf(headers);
    if (!applicationId) return undefined;
    // Keys are lower-case UUIDs, so an exact hit needs no validation and no case folding.
    const entry =
      this.#cache.get(applicationId) ??
      (UUID.test(applicationId) ? this.#cache.get(applicationId.toLowerCase()) : undefined);
    if (!entry?.verifiedHeader || entry.expiresAt <= Date.now()) return undefined;
    const header = headers.authorization;
    return header !== undefined && sameText(header, entry.verifiedHeader) ? entry.application : undefined;
  }

  async authenticate(headers: IncomingHttpHeaders): Promise<Application> {
    const token = bearerToken(headers);
    const applicationId = applicationIdOf(headers);
    const entry =
      applicationId && UUID.test(applicationId) ? await this.#lookup(applicationId.toLowerCase()) : undefined;
    // The key seen a moment ago (kept only as long as the cached row, ttlMs): compared in constant
    // time without hashing it again.
    if (token && entry?.verified && sameKey(token, entry.verified)) {
      if (typeof headers.authorization === 'string') entry.verifiedHeader = headers.authorization;
      return entry.application;
    }
    const matches = tokenMatchesHash(token ?? '', entry?.hash ?? UNKNOWN_APPLICATION_HASH);
    if (!token || !entry || !matches)
      throw new ChaingateError('CG_ERR_UNAUTHORIZED', 'missing or invalid credentials');
    entry.verified = Buffer.from(token);
    if (typeof headers.authorization === 'string') entry.verifiedHeader = headers.authorization;
    return entry.application;
  }

  async #lookup(applicationId: string): Promise<CacheEntry | undefined> {
    const cached = this.#cache.get(applicationId);
    if (cached && cached.expiresAt > Date.now()) return cached;
    const row = await findApplicationById(this.db, applicationId);
    if (!row) return undefined;
    const entry = {
      hash: row.api_key_hash,
      application: toApplication(row),
      expiresAt: Date.now() + this.ttlMs,
    };
    this.#cache.set(applicationId, entry);
    return entry;
  }
}
