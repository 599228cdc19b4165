import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { accountRoutes } from './account.routes.ts';
import { buildRoutes } from './builds/builds.routes.ts';
import { contractRoutes } from './contract.routes.ts';
import { contractReadRoutes } from './contract-read.routes.ts';
import { contractSaveRoute } from './contract-save.route.ts';
import type { StellarContext } from './services/stellar-context.ts';
import { MAX_WASM_BYTES } from './spec/wasm-module.ts';
import { transactionRoutes } from './transaction.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Stellar use cases' context: the platform and the Stellar transaction engine. */
    stellar: StellarContext;
  }
}

/** The Stellar API (document 3), registered under `/stellar/v1` inside an authenticated scope. */
export async function stellarRoutes(scope: FastifyInstance): Promise<void> {
  // Another domain may have registered multipart for the whole application already.
  if (!scope.hasContentTypeParser('multipart/form-data')) {
    await scope.register(multipart, {
      limits: {
        fileSize: MAX_WASM_BYTES,
        files: 1,
        fields: 10,
        parts: 12,
        fieldSize: 4096,
        fieldNameSize: 100,
      },
    });
  }
  await scope.register(accountRoutes);
  await scope.register(contractSaveRoute);
  await scope.register(buildRoutes);
  await scope.register(contractRoutes);
  await scope.register(contractReadRoutes);
  await scope.register(transactionRoutes);
}
