import type { FastifyReply, FastifyRequest } from 'fastify';
import { applicationOf } from '../applications/application-auth.ts';
import { idempotencyOf } from '../platform/http/idempotency-key.ts';
import type { EvmContext } from './services/evm-context.ts';
import { findKeyedSend } from './services/find-keyed-send.ts';

/**
 * The preHandler of every EVM sending route: a request that repeats an idempotency key of its
 * application answers the first transaction (201, `Idempotent-Replayed: true`) and runs nothing else.
 * One answer fits every route: each route's response schema keeps only its own fields. The context is
 * read per request: routes are registered before the service decorates its instance with it.
 */
export function answerRepeatedKey(evm: () => EvmContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const idempotency = idempotencyOf(request);
    if (!idempotency) return undefined;
    const sent = await findKeyedSend(evm(), applicationOf(request).id, idempotency);
    if (!sent) return undefined;
    reply.header('idempotent-replayed', 'true');
    return reply
      .status(201)
      .send({ contractAddress: sent.contractAddress, txHash: sent.txHash, nonce: Number(sent.nonce) });
  };
}
