import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  preHandlerHookHandler,
} from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import { ChaingateError, quote } from '../errors/chaingate-error.ts';
import { parseLosslessJson } from '../json/lossless-json.ts';
import { JSON_BODY_LIMIT, normalizeInput, parseJsonBody } from './request-input.ts';
import { compileInputValidators } from './schema-compilers.ts';
import { type ValidationIssue, validationMessage } from './validation-message.ts';

/**
 * Fastify does not read GET bodies; clients of the spec send JSON with GET, so it is read here. Past
 * the limit the reading stops with a 413, and the error handler closes the connection, so the unread
 * rest is never taken for the next request.
 */
async function readGetBody(request: FastifyRequest): Promise<Record<string, unknown> | undefined> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (!declared && !request.headers['transfer-encoding']) return undefined;
  if (declared > JSON_BODY_LIMIT) throw new ChaingateError('CG_ERR_BODY_TOO_LARGE', 'request body too large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    size += (chunk as Buffer).length;
    if (size > JSON_BODY_LIMIT) throw new ChaingateError('CG_ERR_BODY_TOO_LARGE', 'request body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) return undefined;
  const parsed = parseJsonBody(text, request.headers['content-type']);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ChaingateError('CG_ERR_VALIDATION', 'body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** Renames the field-name variants seen in the wild to the canonical names, in place. */
function applyAliases(input: Record<string, unknown>, aliases: Record<string, string>): void {
  for (const alias in aliases) {
    const canonical = aliases[alias] as string;
    if (alias in input) {
      if (!(canonical in input)) input[canonical] = input[alias];
      delete input[alias];
    }
  }
}

/** Query strings carry arrays (`params`, `ids`) as JSON text, read without changing a number. */
function parseJsonArrays(input: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(input)) {
    if (typeof value === 'string' && value.startsWith('[')) {
      try {
        input[key] = parseLosslessJson(value);
      } catch {
        throw new ChaingateError('CG_ERR_VALIDATION', `querystring.${quote(key)} is not a valid JSON array`);
      }
    }
  }
}

function refuse(issue: ValidationIssue | undefined, context: string): never {
  throw new ChaingateError('CG_ERR_VALIDATION', validationMessage(issue, context, `${context} is invalid`));
}

export type ReadRouteOptions<Input extends TSchema> = {
  input: Input;
  aliases?: Record<string, string>;
  schema: Omit<FastifySchema, 'body' | 'querystring'>;
  /** Runs after validation, before the handler, in both forms (a send's idempotency key). */
  preHandler?: preHandlerHookHandler;
};

/**
 * A read the spec marks GET|POST: POST with a JSON body, GET with the same JSON body, or GET with a
 * query string. All three are validated against one schema and reach `handler` as one input object.
 * Query values are text, coerced to the schema's types; body values are taken as typed (a `true`
 * where an integer belongs is a 400, not 1).
 */
export function readRoute<Input extends TSchema>(
  app: FastifyInstance,
  path: string,
  options: ReadRouteOptions<Input>,
  handler: (input: Static<Input>, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): void {
  const aliases = options.aliases ?? {};
  const validators = compileInputValidators(options.input);
  const queryValidators = compileInputValidators(Type.Partial(options.input));
  app.route({
    method: 'GET',
    url: path,
    schema: { ...options.schema, querystring: options.input },
    // The query is validated below, where it and a GET body are told apart; path and headers as usual.
    validatorCompiler: ({ schema, httpPart }) =>
      httpPart === 'querystring' ? () => true : compileInputValidators(schema as object).text,
    preValidation: async (request) => {
      const query = { ...(request.query as Record<string, unknown>) };
      parseJsonArrays(query);
      applyAliases(query, aliases);
      normalizeInput(query, 'querystring');
      if (!queryValidators.text(query)) refuse(queryValidators.text.errors?.[0], 'querystring');
      const body = await readGetBody(request);
      if (body) {
        normalizeInput(body, 'body');
        applyAliases(body, aliases);
      }
      const input = { ...query, ...(body ?? {}) };
      if (!validators.strict(input)) refuse(validators.strict.errors?.[0], body ? 'body' : 'querystring');
      request.query = input;
    },
    ...(options.preHandler ? { preHandler: options.preHandler } : {}),
    handler: (request, reply) => handler(request.query as Static<Input>, request, reply),
  });
  app.route({
    method: 'POST',
    url: path,
    schema: { ...options.schema, body: options.input },
    // A callback hook: the POST form is the hot path of views, and an async hook costs a promise.
    preValidation: (request, _reply, done) => {
      const body = request.body ?? {};
      if (typeof body !== 'object' || Array.isArray(body)) {
        done(new ChaingateError('CG_ERR_VALIDATION', 'body must be a JSON object'));
        return;
      }
      applyAliases(body as Record<string, unknown>, aliases);
      request.body = body;
      done();
    },
    ...(options.preHandler ? { preHandler: options.preHandler } : {}),
    handler: (request, reply) => handler(request.body as Static<Input>, request, reply),
  });
}

/** The same alias handling for a POST-only route's body (a callback hook: sends are a hot path too). */
export function aliasBody(aliases: Record<string, string>) {
  return (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    const body = request.body as Record<string, unknown> | undefined;
    if (body && typeof body === 'object' && !Array.isArray(body)) applyAliases(body, aliases);
    done();
  };
}
