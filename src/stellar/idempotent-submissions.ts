import type { FastifyReply, FastifyRequest } from 'fastify';
import { applicationOf } from '../applications/application-auth.ts';
import { idempotencyOf } from '../platform/http/idempotency-key.ts';
import type { KeyedSubmission } from './engine/stellar-transactions.repository.ts';
import { findKeyedSubmission } from './services/find-keyed-submission.ts';
import type { StellarContext } from './services/stellar-context.ts';

/**
 * The preHandler of a Stellar submitting route: a request that repeats an idempotency key of its
 * application is answered from the stored submission, with the route's status and `answer`, and
 * `Idempotent-Replayed: true`; nothing else runs. The context is read per request (routes are
 * registered before the service decorates its instance).
 */
export function answerRepeatedKey(
  stellar: () => StellarContext,
  status: number,
  answer: (submission: KeyedSubmission) => object,
) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const idempotency = idempotencyOf(request);
    if (!idempotency) return undefined;
    const stored = await findKeyedSubmission(stellar(), applicationOf(request).id, idempotency);
    if (!stored) return undefined;
    reply.header('idempotent-replayed', 'true');
    return reply.status(status).send(answer(stored));
  };
}
