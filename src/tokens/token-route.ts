import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static, TObject, TSchema } from 'typebox';
import { applicationOf } from '../applications/application-auth.ts';
import type { Application } from '../applications/applications.service.ts';
import { answerRepeatedKey } from '../evm/idempotent-sends.ts';
import { ChaingateError } from '../platform/errors/chaingate-error.ts';
import type { ErrorCode } from '../platform/errors/codes.ts';
import { errorResponses } from '../platform/http/error-body.ts';
import { IdempotencyHeaders, idempotencyOf } from '../platform/http/idempotency-key.ts';
import { aliasBody, readRoute } from '../platform/http/read-route.ts';
import type { Idempotency } from '../platform/idempotency/idempotency.ts';
import {
  contractCodes,
  DeployAnswer,
  deployCodes,
  readCodes,
  SendAnswer,
  sendCodes,
  type TokenSendOptions,
  tokenAliases,
  tokenSendOptions,
} from './token.schemas.ts';

export type TokenRouteOptions<Input extends TObject> = {
  tags: string[];
  summary: string;
  description?: string;
  input: Input;
  /** Field-name variants beyond the common ones (`initualSupply` …). */
  aliases?: Record<string, string>;
  /** Codes beyond those every route of its kind answers. */
  codes?: ErrorCode[];
};

/** What every state change of the token APIs takes from its body besides its own fields. */
export type TokenCallBase = TokenSendOptions & {
  application: Application;
  chainId: number;
  idempotency: Idempotency | undefined;
};

function callBase(
  body: { network: number } & Parameters<typeof tokenSendOptions>[0],
  request: FastifyRequest,
) {
  return {
    application: applicationOf(request),
    chainId: body.network,
    ...tokenSendOptions(body),
    idempotency: idempotencyOf(request),
  };
}

/** POST route of a state change: answers 201 `{txHash, nonce}` once the node accepted the transaction. */
export function tokenSendRoute<Input extends TObject>(
  app: FastifyInstance,
  path: string,
  options: TokenRouteOptions<Input>,
  run: (body: Static<Input>, base: TokenCallBase) => Promise<{ txHash: string; nonce: number }>,
): void {
  app.post(
    path,
    {
      preValidation: aliasBody({ ...tokenAliases, ...options.aliases }),
      preHandler: answerRepeatedKey(() => app.evm),
      schema: {
        headers: IdempotencyHeaders,
        tags: options.tags,
        summary: options.summary,
        ...(options.description ? { description: options.description } : {}),
        body: options.input,
        response: {
          201: SendAnswer,
          ...errorResponses([...contractCodes, ...sendCodes, ...(options.codes ?? [])]),
        },
      },
    },
    async (request, reply) => {
      const body = request.body as Static<Input> & { network: number };
      const sent = await run(body, callBase(body, request));
      return reply.status(201).send({ txHash: sent.txHash, nonce: sent.nonce });
    },
  );
}

/** POST route of a deploy: answers 201 `{contractAddress, txHash}` once the node accepted it. */
export function tokenDeployRoute<Input extends TObject>(
  app: FastifyInstance,
  path: string,
  options: TokenRouteOptions<Input>,
  run: (body: Static<Input>, base: TokenCallBase) => Promise<{ contractAddress: string; txHash: string }>,
): void {
  app.post(
    path,
    {
      preValidation: aliasBody({ ...tokenAliases, ...options.aliases }),
      preHandler: answerRepeatedKey(() => app.evm),
      schema: {
        headers: IdempotencyHeaders,
        tags: options.tags,
        summary: options.summary,
        body: options.input,
        response: { 201: DeployAnswer, ...errorResponses([...deployCodes, ...(options.codes ?? [])]) },
      },
    },
    async (request, reply) => {
      const body = request.body as Static<Input> & { network: number };
      const deployed = await run(body, callBase(body, request));
      return reply.status(201).send({ contractAddress: deployed.contractAddress, txHash: deployed.txHash });
    },
  );
}

/** A read the spec marks GET|POST: POST body, GET body or GET query string, with the common synonyms. */
export function tokenReadRoute<Input extends TObject>(
  app: FastifyInstance,
  path: string,
  options: TokenRouteOptions<Input> & { response: TSchema },
  run: (input: Static<Input>, application: Application) => Promise<unknown>,
): void {
  readRoute(
    app,
    path,
    {
      input: options.input,
      aliases: { ...tokenAliases, ...options.aliases },
      schema: {
        tags: options.tags,
        summary: options.summary,
        ...(options.description ? { description: options.description } : {}),
        response: { 200: options.response, ...errorResponses([...readCodes, ...(options.codes ?? [])]) },
      },
    },
    (input, request) => run(input, applicationOf(request)),
  );
}

function nonFiniteField(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  for (const [key, value] of Object.entries(input)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((item) => typeof item === 'number' && !Number.isFinite(item))) return key;
  }
  return undefined;
}

/**
 * Ajv coerces a string such as "1e400" to Infinity for an integer field and then skips its
 * `maximum`: such a value would reach a query or an encoder. Run after validation, it is a 400.
 */
export async function rejectNonFiniteNumbers(request: FastifyRequest): Promise<void> {
  const field = nonFiniteField(request.body) ?? nonFiniteField(request.query);
  if (field !== undefined) {
    throw new ChaingateError('CG_ERR_VALIDATION', `${field} must be a finite integer`, {
      context: { field },
    });
  }
}
