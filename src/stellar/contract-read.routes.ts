import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { applicationOf } from '../applications/application-auth.ts';
import type { ErrorCode } from '../platform/errors/codes.ts';
import { errorResponses } from '../platform/http/error-body.ts';
import { readRoute } from '../platform/http/read-route.ts';
import { listContractMethods } from './services/contract-specs.ts';
import { contractCodeTtl, contractInstanceTtl } from './services/contract-ttl.ts';
import {
  AccountField,
  ContractAddressField,
  NetworkIdField,
  networkAliases,
  networkAliasNote,
  SpecsIdField,
  TtlAnswer,
} from './stellar.schemas.ts';

const tags = ['stellar: contracts'];
const networkCodes: ErrorCode[] = [
  'CG_ERR_UNKNOWN_NETWORK',
  'CG_ERR_PLAN_FORBIDS',
  'CG_ERR_STELLAR_UNREACHABLE',
];
const NetworkInput = Type.Object({ blockchainNetwork: NetworkIdField() }, { description: networkAliasNote });
const SpecParams = Type.Object({ contractId: SpecsIdField('contract specs id') });

export async function contractReadRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  readRoute(
    app,
    '/contract/:contractId/methods',
    {
      input: NetworkInput,
      aliases: networkAliases,
      schema: {
        tags,
        summary:
          "A saved contract's functions: `methods` as signatures, `functions` with names and types apart",
        description:
          'Signatures read `name(arg: type, …) -> return type`, types as in Rust (`i128`, `Vec<Address>`).',
        params: SpecParams,
        response: {
          200: Type.Object({
            methods: Type.Array(Type.String()),
            functions: Type.Array(
              Type.Object({
                name: Type.String(),
                inputs: Type.Array(Type.Object({ name: Type.String(), type: Type.String() })),
                output: Type.Union([Type.String(), Type.Null()]),
                signature: Type.String(),
              }),
            ),
          }),
          ...errorResponses(['CG_ERR_UNKNOWN_NETWORK', 'CG_ERR_PLAN_FORBIDS', 'CG_ERR_UNKNOWN_SPEC']),
        },
      },
    },
    async (input, request) =>
      listContractMethods(app.stellar, {
        application: applicationOf(request),
        contractSpecsId: (request.params as { contractId: number }).contractId,
        networkId: input.blockchainNetwork,
      }),
  );

  readRoute(
    app,
    '/contract/:contractId/contracttl',
    {
      input: NetworkInput,
      aliases: networkAliases,
      schema: {
        tags,
        summary: "TTL of a saved contract's code (its wasm) on a network",
        params: SpecParams,
        response: {
          200: TtlAnswer,
          ...errorResponses([...networkCodes, 'CG_ERR_UNKNOWN_SPEC', 'CG_ERR_STELLAR_UNKNOWN_CONTRACT']),
        },
      },
    },
    async (input, request) =>
      contractCodeTtl(app.stellar, {
        application: applicationOf(request),
        contractSpecsId: (request.params as { contractId: number }).contractId,
        networkId: input.blockchainNetwork,
      }),
  );

  readRoute(
    app,
    '/contract/:address/instancettl',
    {
      input: Type.Object(
        { blockchainNetwork: NetworkIdField(), sourceAccount: AccountField('account of the requester') },
        { description: networkAliasNote },
      ),
      aliases: networkAliases,
      schema: {
        tags,
        summary: 'TTL of a contract instance',
        params: Type.Object({ address: ContractAddressField('contract instance') }),
        response: {
          200: TtlAnswer,
          ...errorResponses([
            ...networkCodes,
            'CG_ERR_STELLAR_UNKNOWN_ACCOUNT',
            'CG_ERR_STELLAR_UNKNOWN_CONTRACT',
          ]),
        },
      },
    },
    async (input, request) =>
      contractInstanceTtl(app.stellar, {
        application: applicationOf(request),
        address: (request.params as { address: string }).address,
        networkId: input.blockchainNetwork,
        sourceAccount: input.sourceAccount,
      }),
  );
}
