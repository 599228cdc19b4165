import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { GatewayError } from './gateway-error.ts';

type ErrorAnswer = { statusCode: number; code: string; message: string };

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

function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0] as
    | { instancePath?: string; message?: string; params?: Record<string, unknown> }
    | undefined;
  if (!first) return error.message;
  const context = error.validationContext ?? 'body';
  const missing = first.params?.requiredProperties ?? first.params?.missingProperty;
  const path = (first.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  if (missing) {
    const name = Array.isArray(missing) ? missing.join(', ') : String(missing);
    return `${context}${path ? `.${path}` : ''}: missing required field '${name}'`;
  }
  const additional = first.params?.additionalProperty;
  if (additional) return `${context}${path ? `.${path}` : ''}: unknown field '${String(additional)}'`;
  return `${context}${path ? `.${path}` : ''} ${first.message ?? 'is invalid'}`;
}

/** Maps every error to `{ statusCode, code, error, message }`; details go to the log only. */
export function toErrorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof GatewayError) {
    return { statusCode: error.statusCode, code: error.code, message: error.shortMessage };
  }
  const fastifyError = error as FastifyError & { code?: string };
  if (fastifyError?.validation) {
    return { statusCode: 400, code: 'CG_ERR_VALIDATION', message: validationMessage(fastifyError) };
  }
  if (fastifyError?.code && connectionErrorCodes.has(fastifyError.code)) {
    return { statusCode: 503, code: 'CG_ERR_DEPENDENCY', message: 'a dependency is unreachable' };
  }
  if (fastifyError?.code === '23505') {
    return { statusCode: 409, code: 'CG_ERR_CONFLICT', message: 'the record already exists' };
  }
  const status = fastifyError?.statusCode;
  if (status && status >= 400 && status < 500) {
    return {
      statusCode: status,
      code: fastifyError.code ?? 'CG_ERR_BAD_REQUEST',
      message: fastifyError.message,
    };
  }
  return { statusCode: 500, code: 'CG_ERR_INTERNAL', message: 'internal error' };
}

export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error, request, reply) => {
      const answer = toErrorAnswer(error);
      if (answer.statusCode >= 500 && !(error instanceof GatewayError))
        request.log.error({ err: error }, 'request failed');
      else if (answer.statusCode >= 500)
        request.log.warn({ code: answer.code, reason: answer.message }, 'dependency or customer error');
      else
        request.log.info(
          { err: { message: (error as Error).message, code: answer.code } },
          'request refused',
        );
      return reply.status(answer.statusCode).send({
        statusCode: answer.statusCode,
        code: answer.code,
        error: STATUS_CODES[answer.statusCode] ?? 'Error',
        message: answer.message,
      });
    });
    app.setNotFoundHandler((request, reply) =>
      reply.status(404).send({
        statusCode: 404,
        code: 'CG_ERR_ROUTE_NOT_FOUND',
        error: 'Not Found',
        message: `no route ${request.method} ${request.url.split('?')[0]}`,
      }),
    );
  },
  { name: 'chaingate-error-handler', fastify: '5.x' },
);
