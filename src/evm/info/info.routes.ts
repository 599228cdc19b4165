import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Hex } from 'viem';
import { applicationOf } from '../../applications/application-auth.ts';
import { type ErrorCode, recordErrorCodes } from '../../platform/errors/codes.ts';
import { errorResponses } from '../../platform/http/error-body.ts';
import { AddressField, ChainIdField, SpecIdField, TxHashField } from '../request-fields.ts';
import { getTransactionInformation } from '../services/get-transaction-information.ts';
import { getTransactionStatus, listTransactionsByReference } from '../services/get-transaction-status.ts';
import { isContract } from '../services/read-chain.ts';
import { StatusRecord, TransactionInformation } from './info.schemas.ts';

const tags = ['evm: info'];
const NetworkQuery = Type.Object({ network: ChainIdField });
const networkCodes: ErrorCode[] = ['CG_ERR_UNKNOWN_NETWORK', 'CG_ERR_PLAN_FORBIDS'];

export async function infoRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/info/address/:address/iscontract',
    {
      schema: {
        tags,
        summary: 'Whether an address holds contract code',
        params: Type.Object({ address: AddressField() }),
        querystring: NetworkQuery,
        response: {
          200: Type.Object({ isContract: Type.Boolean() }),
          ...errorResponses([...networkCodes, 'ERROR_NODE_UNREACHABLE']),
        },
      },
    },
    async (request) => ({
      isContract: await isContract(app.evm, {
        application: applicationOf(request),
        chainId: request.query.network,
        address: request.params.address,
      }),
    }),
  );

  app.get(
    '/info/transaction/:txHash',
    {
      schema: {
        tags,
        summary: 'Full transaction information read from the chain, decoded where the ABI is known',
        description:
          'Input data and logs are decoded with the spec given by contractSpecsId, else the spec the transaction was ' +
          'sent or deployed with through chaingate, else the standard contracts. `errorInfo.code` is one of the ' +
          `codes of the error table (\`ERROR_…\`), or one of these: ${Object.entries(recordErrorCodes)
            .map(([code, meaning]) => `\`${code}\` (${meaning})`)
            .join('; ')}. An unknown hash answers 404.`,
        params: Type.Object({ txHash: TxHashField }),
        querystring: Type.Object({ network: ChainIdField, contractSpecsId: Type.Optional(SpecIdField()) }),
        response: {
          200: TransactionInformation,
          ...errorResponses([
            ...networkCodes,
            'CG_ERR_UNKNOWN_SPEC',
            'CG_ERR_UNKNOWN_TRANSACTION',
            'ERROR_NODE_UNREACHABLE',
          ]),
        },
      },
    },
    async (request) =>
      getTransactionInformation(app.evm, {
        application: applicationOf(request),
        chainId: request.query.network,
        txHash: request.params.txHash as Hex,
        contractSpecsId: request.query.contractSpecsId,
      }),
  );

  app.get(
    '/info/transaction/:txHash/status',
    {
      schema: {
        tags,
        summary: 'Platform status of a transaction sent by this application (any hash it was signed with)',
        params: Type.Object({ txHash: TxHashField }),
        querystring: NetworkQuery,
        response: { 200: StatusRecord, ...errorResponses([...networkCodes, 'CG_ERR_UNKNOWN_TRANSACTION']) },
      },
    },
    async (request) =>
      getTransactionStatus(app.evm, {
        application: applicationOf(request),
        chainId: request.query.network,
        txHash: request.params.txHash,
      }),
  );

  app.get(
    '/info/transaction/reference/:reference',
    {
      schema: {
        tags,
        summary: 'Every transaction record carrying a myReference, oldest first (empty for an unknown one)',
        params: Type.Object({
          reference: Type.String({ pattern: '^[A-Za-z0-9]{1,128}$', description: 'alphanumeric, ≤ 128' }),
        }),
        response: {
          200: Type.Object({ reference: Type.String(), info: Type.Array(StatusRecord) }),
          ...errorResponses([]),
        },
      },
    },
    async (request) =>
      listTransactionsByReference(app.evm, {
        application: applicationOf(request),
        reference: request.params.reference,
      }),
  );
}
