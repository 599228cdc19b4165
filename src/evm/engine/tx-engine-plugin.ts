import type { TxEngine } from './tx-engine.ts';

declare module 'fastify' {
  interface FastifyInstance {
    txEngine: TxEngine;
  }
}
