import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { ChaingateError } from '../errors/chaingate-error.ts';

const MAX_GET_BODY = 1024 * 1024;

/** Fastify ignores GET bodies; clients of the spec send JSON with GET, so read it here. */
async function readGetBody(request: FastifyRequest): Promise<Record<string, unknown> | undefined> {
  const length = Number(request.headers['content-length'] ?? 0);
  if (!length && !request.headers['transfer-encoding']) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    size += (chunk as Buffer).length;
    if (size > MAX_GET_BODY) throw new ChaingateError('CG_ERR_BODY_TOO_LARGE', 'request body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ChaingateError('CG_ERR_BAD_REQUEST', 'request body must be a JSON object');
    }
    return parsed as Record<string, unknown>;
  } catch (error) {
    if (error instanceof ChaingateError) throw error;
    throw new ChaingateError('CG_ERR_INVALID_JSON', 'request body is not valid JSON');
  }
}

/** Renames the field-name variants seen in the wild to the canonical names, in place. */
function applyAliases(input: Record<string, unknown>, aliases: Record<string, string>): void {
  for (const [alias, canonical] of Object.entries(aliases)) {
    if (alias in input) {
      if (!(canonical in input)) input[canonical] = input[alias];
      delete input[alias];
    }
  }
}

/** Query strings carry arrays (`params`, `ids`) as JSON text. */
function parseJsonArrays(input: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(input)) {
    if (typeof value === 'string' && value.startsWith('[')) {
      try {
        input[key] = JSON.parse(value);
      } catch {
        throw new ChaingateError('CG_ERR_BAD_REQUEST', `querystring.${key} is not a valid JSON array`);
      }
    }
  }
}

export type ReadRouteOptions<Input extends TSchema> = {
  input: Input;
  aliases?: Record<string, string>;
  schema: Omit<FastifySchema, 'body' | 'querystring'>;
};

/**
 * A read the spec marks GET|POST: POST with a JSON body, GET with the same JSON body, or GET with a
 * query string. All three are validated against one schema and reach `handler` as one input object.
 */
export function readRoute<Input extends TSchema>(
  app: FastifyInstance,
  path: string,
  options: ReadRouteOptions<Input>,
  handler: (input: Static<Input>, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): void {
  const aliases = options.aliases ?? {};
  app.route({
    method: 'GET',
    url: path,
    schema: { ...options.schema, querystring: options.input },
    preValidation: async (request) => {
      const query = { ...(request.query as Record<string, unknown>) };
      parseJsonArrays(query);
      const body = await readGetBody(request);
      const merged = { ...query, ...(body ?? {}) };
      applyAliases(merged, aliases);
      request.query = merged;
    },
    handler: (request, reply) => handler(request.query as Static<Input>, request, reply),
  });
  app.route({
    method: 'POST',
    url: path,
    schema: { ...options.schema, body: options.input },
    preValidation: async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (typeof body !== 'object' || Array.isArray(body))
        throw new ChaingateError('CG_ERR_BAD_REQUEST', 'request body must be a JSON object');
      applyAliases(body, aliases);
      request.body = body;
    },
    handler: (request, reply) => handler(request.body as Static<Input>, request, reply),
  });
}

/** The same alias handling for a POST-only route's body. */
export function aliasBody(aliases: Record<string, string>) {
  return async (request: FastifyRequest) => {
    const body = request.body as Record<string, unknown> | undefined;
    if (body && typeof body === 'object' && !Array.isArray(body)) applyAliases(body, aliases);
  };
}
