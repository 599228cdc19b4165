import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { applicationOf } from '../applications/application-auth.ts';
import { idempotencyOf } from '../platform/http/idempotency-key.ts';
import type { EvmContext } from './services/evm-context.ts';
import { findKeyedSend } from './services/find-keyed-send.ts';

/**
 * The preHandler of every EVM sending route: a request that repeats an idempotency key of its
 * application answers the first transaction (201, `Idempotent-Replayed: true`) and runs nothing else.
 * One answer fits every route: each route's response schema keeps only its own fields. The context is
 * read per request: routes are registered before the service decorates its instance with it. A callback
 * hook, so that a send without a key (nearly all) pays no promise.
 */
export function answerRepeatedKey(evm: () => EvmContext) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    let idempotency: ReturnType<typeof idempotencyOf>;
    try {
      idempotency = idempotencyOf(request);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (!idempotency) {
      done();
      return;
    }
    findKeyedSend(evm(), applicationOf(request).id, idempotency).then((sent) => {
      if (!sent) {
        done();
        return;
      }
      reply.header('idempotent-replayed', 'true');
      reply
        .status(201)
        .send({ contractAddress: sent.contractAddress, txHash: sent.txHash, nonce: Number(sent.nonce) });
    }, done);
  };
}
