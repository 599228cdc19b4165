import type { FastifyInstance } from 'fastify';
import { chainsRoutes } from './info/chains.routes.ts';
import { infoRoutes } from './info/info.routes.ts';
import { nativeRoutes } from './native/native.routes.ts';
import type { EvmContext } from './services/evm-context.ts';
import { specsRoutes } from './specs/specs.routes.ts';
import { transactRoutes } from './transact/transact.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The EVM use cases' context: the platform and the transaction engine. */
    evm: EvmContext;
  }
}

/** The core EVM API (document 1), registered under `/core/v1/evm` inside an authenticated scope. */
export async function evmRoutes(scope: FastifyInstance): Promise<void> {
  await scope.register(chainsRoutes);
  await scope.register(specsRoutes);
  await scope.register(transactRoutes);
  await scope.register(infoRoutes);
  await scope.register(nativeRoutes);
}
