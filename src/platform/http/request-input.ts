import type { FastifyBodyParser, FastifyInstance, FastifyRequest } from 'fastify';
import { ChaingateError } from '../errors/chaingate-error.ts';
import { JsonSyntaxError, parseLosslessJson } from '../json/lossless-json.ts';

/** Largest JSON body any endpoint reads (multipart uploads have their own limits). */
export const JSON_BODY_LIMIT = 1024 * 1024;

/**
 * Fields whose zero means "not given": Go clients send every field, zero when unset. A gas limit, a
 * fee or a spec id of 0 is never meant (`nonce: 0` is, so it is not here).
 */
const zeroMeansAbsent = new Set(['gasLimit', 'gas', 'gasPrice', 'priorityFee', 'contractSpecsId']);
/** Optional text fields whose empty string means "not given" (Go's zero string). */
const emptyMeansAbsent = new Set(['myReference', 'alias']);

/** Content types that carry JSON or that clients send JSON with (curl's default form type, none). */
function mayCarryJson(contentType: string | undefined): boolean {
  if (!contentType) return true;
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    type === '' ||
    type.endsWith('/json') ||
    type.endsWith('+json') ||
    type === 'application/x-www-form-urlencoded' ||
    type.startsWith('text/')
  );
}

/**
 * Parses a request body that should be JSON, whatever its Content-Type says (a popular shell client
 * sends JSON as a form, some send none): JSON is JSON. An empty body is `{}`. Anything else is a 400
 * (CG_ERR_INVALID_JSON) for a type that may carry JSON, and a 415 for another type.
 */
export function parseJsonBody(text: string, contentType: string | undefined): unknown {
  if (text.trim() === '') return {};
  try {
    return parseLosslessJson(text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    if (!mayCarryJson(contentType)) {
      throw new ChaingateError(
        'CG_ERR_UNSUPPORTED_MEDIA_TYPE',
        'the body is not JSON: send application/json',
      );
    }
    throw new ChaingateError('CG_ERR_INVALID_JSON', `the body is not valid JSON (${error.message})`);
  }
}

/** A JSON object (multipart bodies carry streams and buffers, which are left alone). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!value || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function describePath(where: string, path: readonly (string | number)[]): string {
  return path.reduce<string>(
    (out, key) =>
      typeof key === 'number' ? `${out}[${key}]` : `${out}.${key.length > 40 ? `${key.slice(0, 40)}…` : key}`,
    where,
  );
}

/** The first lone UTF-16 surrogate, or NUL (where `allowNul` is false), in `text`. */
function badCharacter(text: string, allowNul: boolean): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0 && !allowNul) return 'a NUL character';
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return 'a lone UTF-16 surrogate';
    } else if (code >= 0xdc00 && code <= 0xdfff) return 'a lone UTF-16 surrogate';
  }
  return undefined;
}

/**
 * Refuses text the store cannot keep or that is not text: a NUL character (PostgreSQL refuses it in
 * text columns) and lone surrogates (not Unicode). Inside `params` NUL is allowed, since ABI strings
 * are encoded, never stored as text.
 */
function checkCharacters(
  value: unknown,
  where: string,
  path: Array<string | number>,
  insideParams: boolean,
): void {
  if (typeof value === 'string') {
    const bad = badCharacter(value, insideParams);
    if (bad) {
      throw new ChaingateError('CG_ERR_VALIDATION', `${describePath(where, path)} contains ${bad}`, {
        context: { field: describePath(where, path) },
      });
    }
    return;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) checkCharacters(item, where, [...path, index], insideParams);
    return;
  }
  if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      const bad = badCharacter(key, false);
      if (bad) throw new ChaingateError('CG_ERR_VALIDATION', `${where} has a key with ${bad}`);
      checkCharacters(item, where, [...path, key], insideParams || (path.length === 0 && key === 'params'));
    }
  }
}

/** A NUL or any UTF-16 surrogate: text without one is clean, and almost every request is. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what is looked for.
const SUSPECT_CHARACTER = /[\u0000\ud800-\udfff]/;

/**
 * Whether anything in `value` may hold a character `checkCharacters` refuses: one allocation-free
 * pass over every request, and the path-tracking check only for the rare one that has one.
 */
function maySuspectCharacters(value: unknown): boolean {
  if (typeof value === 'string') return SUSPECT_CHARACTER.test(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (maySuspectCharacters(value[i])) return true;
    return false;
  }
  if (isPlainObject(value)) {
    for (const key in value) {
      if (SUSPECT_CHARACTER.test(key) || maySuspectCharacters(value[key])) return true;
    }
  }
  return false;
}

/**
 * The drop-in rules for one request's input object, applied before validation (service contract,
 * "Bodies"): an optional field that is `null` is absent; `gasLimit`, `gas`, `gasPrice`,
 * `priorityFee` and `contractSpecsId` of 0 are absent (`nonce: 0` stays); an empty `myReference` or
 * `alias` is absent; `params: null` is `[]`. Then text the store cannot keep is refused.
 */
export function normalizeInput(input: unknown, where: 'body' | 'querystring'): void {
  if (!isPlainObject(input)) return;
  const record = input as Record<string, unknown>;
  for (const key in record) {
    const value = record[key];
    if (value === null) {
      if (key === 'params') record[key] = [];
      else delete record[key];
    } else if ((value === 0 || value === '0') && zeroMeansAbsent.has(key)) delete record[key];
    else if (value === '' && emptyMeansAbsent.has(key)) delete record[key];
  }
  if (maySuspectCharacters(record)) checkCharacters(record, where, [], false);
}

/** Body parsing and input normalisation for every route of the app. */
export function registerRequestInput(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parseBody: FastifyBodyParser<string> = (request, body, done) => {
    try {
      done(null, parseJsonBody(body, request.headers['content-type']));
    } catch (error) {
      done(error as Error, undefined);
    }
  };
  const options = { parseAs: 'string', bodyLimit: JSON_BODY_LIMIT } as const;
  app.addContentTypeParser('*', options, parseBody);
  // The same parser under the type nearly every client sends: Fastify remembers the parser of a named
  // type per header value, while the catch-all is looked up anew (the header parsed) on every request.
  app.addContentTypeParser('application/json', options, parseBody);
  // A callback hook, not an async one: no promise and no extra microtask turn on every request.
  app.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
    try {
      normalizeInput(request.query, 'querystring');
      if (request.body !== undefined) normalizeInput(request.body, 'body');
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });
}
