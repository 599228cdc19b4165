import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { databaseFailureWords } from '../db/database-failure.ts';
import { ChaingateError, quote } from '../errors/chaingate-error.ts';
import { type ErrorCode, errorCodes } from '../errors/codes.ts';
import {
  isNodeTransportFailure,
  isRateLimited,
  nodeRpcError,
  transportFailureWords,
} from '../networks/node-failure.ts';
import { type ValidationIssue, validationMessage } from './validation-message.ts';

type ErrorAnswer = { code: ErrorCode; message: string };

/** Codes of the database and the network stack that mean "a dependency is down", not a bug. */
const connectionErrorCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01', // admin_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08003',
  '08006',
]);

/** Fastify's own request errors, answered with the project's codes. */
const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'CG_ERR_INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'CG_ERR_INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'CG_ERR_BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'CG_ERR_UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'CG_ERR_BAD_REQUEST',
  FST_ERR_CTP_INVALID_TYPE: 'CG_ERR_UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_MAX_PARAM_LENGTH: 'CG_ERR_URL_TOO_LONG',
  FST_ERR_BAD_URL: 'CG_ERR_BAD_REQUEST',
  FST_ERR_ASYNC_CONSTRAINT: 'CG_ERR_BAD_REQUEST',
  FST_ERR_VALIDATION: 'CG_ERR_VALIDATION',
};

/** Maps every error to a code of the table and a short message; details go to the log only. */
function toErrorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof ChaingateError) return { code: error.code, message: error.shortMessage };
  if (isRateLimited(error)) {
    const said = nodeRpcError(error)?.message;
    return {
      code: 'CG_ERR_DEPENDENCY',
      message: `the network node refused the call for its rate limit${said ? ` (${quote(said)})` : ''}: retry shortly`,
    };
  }
  if (isNodeTransportFailure(error)) {
    return { code: 'ERROR_NODE_UNREACHABLE', message: `the network node ${transportFailureWords(error)}` };
  }
  // The node answered with an error no service turned into a code of its own: its failure, not the
  // request's (a provider's rate limit, a pruned block).
  const nodeError = nodeRpcError(error);
  if (nodeError) {
    return {
      code: 'CG_ERR_DEPENDENCY',
      message: `the network node answered an error: ${quote(nodeError.message)}`,
    };
  }
  const fastifyError = error as FastifyError & { code?: string };
  if (fastifyError?.validation) {
    const issue = fastifyError.validation[0] as ValidationIssue | undefined;
    const context = fastifyError.validationContext ?? 'body';
    return { code: 'CG_ERR_VALIDATION', message: validationMessage(issue, context, fastifyError.message) };
  }
  const code = fastifyError?.code;
  if (code && code in fastifyCodes) {
    const mapped = fastifyCodes[code] as ErrorCode;
    const message =
      mapped === 'CG_ERR_BODY_TOO_LARGE'
        ? 'request body too large'
        : mapped === 'CG_ERR_UNSUPPORTED_MEDIA_TYPE'
          ? `unsupported content type: send JSON (${quote(fastifyError.message)})`
          : mapped === 'CG_ERR_URL_TOO_LONG'
            ? 'a path parameter is too long'
            : quote(fastifyError.message);
    return { code: mapped, message };
  }
  if (code && connectionErrorCodes.has(code)) {
    return {
      code: 'CG_ERR_DEPENDENCY',
      message: databaseFailureWords(error) ?? 'a dependency is unreachable',
    };
  }
  if (code === '23505') return { code: 'CG_ERR_CONFLICT', message: 'the record already exists' };
  const status = fastifyError?.statusCode;
  if (status === 413) return { code: 'CG_ERR_BODY_TOO_LARGE', message: 'request body too large' };
  if (status === 415) return { code: 'CG_ERR_UNSUPPORTED_MEDIA_TYPE', message: 'unsupported content type' };
  if (status && status >= 400 && status < 500)
    return { code: 'CG_ERR_BAD_REQUEST', message: quote(fastifyError.message) };
  return { code: 'CG_ERR_INTERNAL', message: 'internal error' };
}

/** The body every error leaves as: Fastify's shape with one of the project's codes. */
export function errorBody(code: ErrorCode, message: string) {
  const statusCode = errorCodes[code].status;
  return { statusCode, code, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/** Errors the router raises before any route runs (a malformed URL, a parameter too long). */
export function answerFrameworkError(error: Error, _request: FastifyRequest, reply: FastifyReply): void {
  const answer = toErrorAnswer(error);
  const body = errorBody(answer.code, answer.message);
  reply.status(body.statusCode).send(body);
}

export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error, request, reply) => {
      const answer = toErrorAnswer(error);
      const body = errorBody(answer.code, answer.message);
      if (answer.code === 'CG_ERR_INTERNAL') request.log.error({ err: error }, 'request failed');
      else if (body.statusCode >= 500)
        request.log.warn({ code: answer.code, reason: answer.message }, 'dependency failed');
      else request.log.info({ code: answer.code, reason: answer.message }, 'request refused');
      // A body the server did not read to its end would be parsed as the next request: close instead.
      if (answer.code === 'CG_ERR_BODY_TOO_LARGE') reply.header('connection', 'close');
      return reply.status(body.statusCode).send(body);
    });
    app.setNotFoundHandler((request, reply) =>
      reply
        .status(404)
        .send(
          errorBody(
            'CG_ERR_ROUTE_NOT_FOUND',
            `no route ${request.method} ${quote(request.url.split('?')[0])}`,
          ),
        ),
    );
  },
  { name: 'chaingate-error-handler', fastify: '5.x' },
);

/**
 * Errors Node's HTTP parser finds before any route runs (headers too large, a malformed request):
 * answered with the same JSON body and a code, then the connection is closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const code: ErrorCode =
    error.code === 'HPE_HEADER_OVERFLOW' ? 'CG_ERR_HEADERS_TOO_LARGE' : 'CG_ERR_BAD_REQUEST';
  const body = JSON.stringify(
    errorBody(
      code,
      code === 'CG_ERR_HEADERS_TOO_LARGE' ? 'request headers too large' : 'malformed HTTP request',
    ),
  );
  const status = errorCodes[code].status;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
