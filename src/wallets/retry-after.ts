import type { FastifyInstance } from 'fastify';
import { ChaingateError } from '../platform/errors/chaingate-error.ts';

/**
 * A 429 of this domain (a locked wallet, a code sent moments ago) says when to come back: the error's
 * `retryAfterSeconds` becomes the `Retry-After` header. onError hooks run before the error handler,
 * which keeps the headers set here.
 */
export function retryAfterOnErrors(scope: FastifyInstance): void {
  scope.addHook('onError', async (_request, reply, error) => {
    if (!(error instanceof ChaingateError)) return;
    const seconds = error.context.retryAfterSeconds;
    if (typeof seconds === 'number') reply.header('retry-after', String(seconds));
  });
}
