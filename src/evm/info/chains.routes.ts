import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { applicationOf } from '../../applications/application-auth.ts';
import { errorResponses } from '../../platform/http/error-body.ts';
import { listChains } from '../services/list-chains.ts';

const Chain = Type.Object({
  id: Type.Integer({ description: 'chain id' }),
  name: Type.String(),
  symbol: Type.String({ description: 'native token' }),
  isMainnet: Type.Boolean(),
  explorer: Type.String({ description: 'transaction explorer URL; empty for the local devnet' }),
  testnetFaucet: Type.Union([Type.String(), Type.Null()]),
  typeId: Type.Integer({ description: 'blockchain type: 1 = EVM' }),
  typeName: Type.String(),
  activeForTransactions: Type.Boolean({ description: 'true when the service can send transactions on it' }),
});

export async function chainsRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/info/chains',
    {
      schema: {
        tags: ['evm: info'],
        summary: 'List the EVM networks; a free plan receives test networks only',
        response: {
          200: Type.Object({ mainnetNetworks: Type.Array(Chain), testnetNetworks: Type.Array(Chain) }),
          ...errorResponses([]),
        },
      },
    },
    async (request) => listChains(app.evm, { application: applicationOf(request) }),
  );
}
