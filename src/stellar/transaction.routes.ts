import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { applicationOf } from '../applications/application-auth.ts';
import { errorResponses } from '../platform/http/error-body.ts';
import { getTransactionInformation, listByReference } from './services/transaction-information.ts';
import {
  NetworkIdField,
  RecordSummary,
  ReferenceParam,
  TransactionInformationAnswer,
  TxHashParam,
} from './stellar.schemas.ts';

const tags = ['stellar: transactions'];

export async function transactionRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/transaction/:txHash/info',
    {
      schema: {
        tags,
        summary: 'Transaction information: source, sequence, fee, operations, memo, and the ledger receipt',
        description:
          '`status` is PENDING (submitted, not in a ledger yet), SUCCESS or FAILED (failed in a ledger, or refused ' +
          "before one: nothing spent). `receipt` (also as `recipt`, the sample response's spelling) carries the " +
          'result code, fee charged, ledger, close time, `return_value` (whether there is one), `result` (the ' +
          'decoded return value) and the decoded `events`. A failure carries its result code in `errorInfo.code` and, ' +
          "for a contract error, its number and name from the contract's spec. Any transaction the network holds " +
          "can be read; the application's own ones also while pending. An unknown hash answers 400.",
        params: Type.Object({ txHash: TxHashParam }),
        querystring: Type.Object({
          network: NetworkIdField(),
        }),
        response: {
          200: TransactionInformationAnswer,
          ...errorResponses([
            'CG_ERR_UNKNOWN_NETWORK',
            'CG_ERR_PLAN_FORBIDS',
            'CG_ERR_STELLAR_UNKNOWN_TRANSACTION',
            'CG_ERR_STELLAR_UNREACHABLE',
          ]),
        },
      },
    },
    async (request) =>
      getTransactionInformation(app.stellar, {
        application: applicationOf(request),
        networkId: request.query.network,
        txHash: request.params.txHash.replace(/^0x/i, ''),
      }),
  );

  app.get(
    '/transaction/reference/:reference',
    {
      schema: {
        tags,
        summary: 'Every Stellar transaction record of the application carrying a myReference, oldest first',
        description: 'Deploy, invoke and restore records; an unknown reference answers an empty list.',
        params: Type.Object({ reference: ReferenceParam }),
        response: {
          200: Type.Object({ reference: Type.String(), info: Type.Array(RecordSummary) }),
          ...errorResponses([]),
        },
      },
    },
    async (request) =>
      listByReference(app.stellar, {
        application: applicationOf(request),
        reference: request.params.reference,
      }),
  );
}
