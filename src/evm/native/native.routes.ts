import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { applicationOf } from '../../applications/application-auth.ts';
import type { ErrorCode } from '../../platform/errors/codes.ts';
import { errorResponses } from '../../platform/http/error-body.ts';
import { IdempotencyHeaders, idempotencyOf } from '../../platform/http/idempotency-key.ts';
import { aliasBody, readRoute } from '../../platform/http/read-route.ts';
import { answerRepeatedKey } from '../idempotent-sends.ts';
import {
  AddressField,
  ChainIdField,
  commonAliases,
  GasLimitField,
  GweiField,
  MyReferenceField,
  sendOptionsOf,
  toBigInt,
  UintField,
} from '../request-fields.ts';
import { getBalance, getGasPrice } from '../services/read-chain.ts';
import { estimateTransferNativeGas, transferNative } from '../services/transfer-native.ts';
import { sendCodes } from '../transact/transact.routes.ts';

const tags = ['evm: chain'];
const networkCodes: ErrorCode[] = ['CG_ERR_UNKNOWN_NETWORK', 'CG_ERR_PLAN_FORBIDS', 'ERROR_NODE_UNREACHABLE'];

export async function nativeRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/network/gasprice',
    {
      schema: {
        tags,
        summary: 'Current gas price: GWEI as a number (as the spec) and the exact wei as a string',
        querystring: Type.Object({ network: ChainIdField }),
        response: {
          200: Type.Object({ gasPriceGwei: Type.Number(), gasPriceWei: Type.String() }),
          ...errorResponses(networkCodes),
        },
      },
    },
    async (request) => {
      const price = await getGasPrice(app.evm, {
        application: applicationOf(request),
        chainId: request.query.network,
      });
      return { gasPriceGwei: price.gasPriceGwei, gasPriceWei: price.gasPriceWei.toString() };
    },
  );

  app.get(
    '/chain/:account/balance',
    {
      schema: {
        tags,
        summary: 'Native balance: in ether-units as a number (as the spec) and the exact wei as a string',
        params: Type.Object({ account: AddressField() }),
        querystring: Type.Object({ network: ChainIdField }),
        response: {
          200: Type.Object({ balance: Type.Number(), balanceWei: Type.String() }),
          ...errorResponses(networkCodes),
        },
      },
    },
    async (request) => {
      const found = await getBalance(app.evm, {
        application: applicationOf(request),
        chainId: request.query.network,
        account: request.params.account,
      });
      return { balance: found.balance, balanceWei: found.balanceWei.toString() };
    },
  );

  app.post(
    '/chain/transfer',
    {
      preValidation: aliasBody(commonAliases),
      preHandler: answerRepeatedKey(() => app.evm),
      schema: {
        tags,
        headers: IdempotencyHeaders,
        summary: 'Send native coin from one of the application’s senders (beyond the spec)',
        description:
          'The spec has only the gas estimate of a native transfer; this sends one through the same write-ahead path ' +
          'as every other transaction. `gasPrice` and `priorityFee` are in GWEI, `value` in wei.',
        body: Type.Object({
          sender: AddressField('one of the application’s senders'),
          recipient: AddressField(),
          blockchainNetwork: ChainIdField,
          value: UintField('wei'),
          gasLimit: Type.Optional(GasLimitField('maximum gas; estimated when absent')),
          gasPrice: Type.Optional(GweiField('max fee per gas in GWEI')),
          priorityFee: Type.Optional(GweiField('priority fee in GWEI')),
          nonce: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
          myReference: Type.Optional(MyReferenceField),
        }),
        response: {
          201: Type.Object({ txHash: Type.String(), nonce: Type.Integer() }),
          ...errorResponses([...networkCodes, ...sendCodes]),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const sent = await transferNative(app.evm, {
        application: applicationOf(request),
        chainId: body.blockchainNetwork,
        sender: body.sender,
        recipient: body.recipient,
        value: toBigInt(body.value, 'value') as bigint,
        ...sendOptionsOf(body),
        idempotency: idempotencyOf(request),
      });
      return reply.status(201).send({ txHash: sent.txHash, nonce: sent.nonce });
    },
  );

  readRoute(
    app,
    '/chain/transfer/estimategas',
    {
      input: Type.Object({
        sender: AddressField('any address'),
        recipient: AddressField(),
        blockchainNetwork: ChainIdField,
        value: UintField('wei'),
      }),
      aliases: commonAliases,
      schema: {
        tags,
        summary:
          'Estimate the gas of a native transfer; a sender without the funds gets ERROR_INSUFICIENT_FUNDS (400)',
        response: {
          200: Type.Object({ estimatedGas: Type.Integer() }),
          ...errorResponses([...networkCodes, 'ERROR_INSUFICIENT_FUNDS', 'ERROR_EXECUTION_REVERTED']),
        },
      },
    },
    async (input, request) => ({
      estimatedGas: Number(
        await estimateTransferNativeGas(app.evm, {
          application: applicationOf(request),
          chainId: input.blockchainNetwork,
          sender: input.sender,
          recipient: input.recipient,
          value: toBigInt(input.value, 'value') as bigint,
        }),
      ),
    }),
  );
}
