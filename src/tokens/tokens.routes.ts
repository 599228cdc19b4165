import type { FastifyInstance } from 'fastify';
import { erc20Routes } from './erc20.routes.ts';
import { erc721Routes } from './erc721.routes.ts';
import { erc1155Routes } from './erc1155.routes.ts';
import { poapRoutes } from './poap.routes.ts';
import { tokenListRoutes } from './token-lists.routes.ts';
import { rejectNonFiniteNumbers } from './token-route.ts';

/** The token APIs (document 2), registered under `/erc/v1` inside an authenticated scope. */
export async function tokenRoutes(scope: FastifyInstance): Promise<void> {
  scope.addHook('preHandler', rejectNonFiniteNumbers);
  await scope.register(erc20Routes);
  await scope.register(erc721Routes);
  await scope.register(erc1155Routes);
  await scope.register(poapRoutes);
  await scope.register(tokenListRoutes);
}
