import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { applicationOf } from '../../applications/application-auth.ts';
import type { EvmNetwork } from '../../platform/chains/evm-networks.ts';
import { errorResponses } from '../../platform/http/error-body.ts';

export const EVM_TYPE_ID = 1;

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

export function toChainEntry(network: EvmNetwork) {
  return {
    id: network.chainId,
    name: network.name,
    symbol: network.symbol,
    isMainnet: network.isMainnet,
    explorer: network.explorer,
    testnetFaucet: network.faucet,
    typeId: EVM_TYPE_ID,
    typeName: 'EVM',
    activeForTransactions: true,
  };
}

export async function chainsRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/core/v1/evm/info/chains',
    {
      schema: {
        tags: ['evm: info'],
        summary: 'List the EVM networks; a free plan receives test networks only',
        response: {
          200: Type.Object({ mainnetNetworks: Type.Array(Chain), testnetNetworks: Type.Array(Chain) }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const application = applicationOf(request);
      const networks = app.platform.evm.all().sort((a, b) => a.chainId - b.chainId);
      return {
        mainnetNetworks:
          application.plan === 'premium' ? networks.filter((n) => n.isMainnet).map(toChainEntry) : [],
        testnetNetworks: networks.filter((n) => !n.isMainnet).map(toChainEntry),
      };
    },
  );
}
