import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { applicationOf } from '../applications/application-auth.ts';
import type { ErrorCode } from '../platform/errors/codes.ts';
import { errorResponses } from '../platform/http/error-body.ts';
import { aliasBody, readRoute } from '../platform/http/read-route.ts';
import { accountBalance, applicationAccountInfo } from './services/account-balance.ts';
import { fundAccount } from './services/fund-account.ts';
import { AccountField, accountNetworkAliases, NetworkIdField } from './stellar.schemas.ts';

const tags = ['stellar: accounts'];
const networkCodes: ErrorCode[] = [
  'CG_ERR_UNKNOWN_NETWORK',
  'CG_ERR_PLAN_FORBIDS',
  'CG_ERR_STELLAR_UNREACHABLE',
];
const aliasNote = 'Accepted synonyms: `network` and `blockchainNetwork` for `networkId`.';

const AccountInput = Type.Object(
  { account: AccountField('account'), networkId: NetworkIdField() },
  { description: aliasNote },
);

export async function accountRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/account/fund',
    {
      preValidation: aliasBody(accountNetworkAliases),
      schema: {
        tags,
        summary: 'Create and fund a test account with the network friendbot (testnet, futurenet, local)',
        description:
          'Pubnet has no friendbot: 400 `CG_ERR_STELLAR_NO_FRIENDBOT`. An account that exists already: 400 ' +
          '`CG_ERR_STELLAR_ALREADY_FUNDED`.',
        body: AccountInput,
        response: {
          201: Type.Object({
            account: Type.String(),
            networkId: Type.Integer(),
            funded: Type.Boolean(),
            txHash: Type.Union([Type.String(), Type.Null()], { description: "the friendbot's transaction" }),
          }),
          ...errorResponses([
            ...networkCodes,
            'CG_ERR_STELLAR_NO_FRIENDBOT',
            'CG_ERR_STELLAR_ALREADY_FUNDED',
          ]),
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await fundAccount(app.stellar, {
          application: applicationOf(request),
          networkId: request.body.networkId,
          account: request.body.account,
        }),
      ),
  );

  readRoute(
    app,
    '/account/balance',
    {
      input: AccountInput,
      aliases: accountNetworkAliases,
      schema: {
        tags,
        summary: 'Native balance of an account, in lumens (answers 201, as document 3 lists)',
        response: {
          201: Type.Object({
            account: Type.String(),
            networkId: Type.Integer(),
            balance: Type.Number({ description: 'lumens' }),
            balanceStroops: Type.String({ description: 'the exact balance in stroops (10^-7 lumen)' }),
          }),
          ...errorResponses([...networkCodes, 'CG_ERR_STELLAR_UNKNOWN_ACCOUNT']),
        },
      },
    },
    async (input, request, reply) =>
      reply.status(201).send(
        await accountBalance(app.stellar, {
          application: applicationOf(request),
          networkId: input.networkId,
          account: input.account,
        }),
      ),
  );

  readRoute(
    app,
    '/account',
    {
      input: Type.Object({ networkId: NetworkIdField() }, { description: aliasNote }),
      aliases: accountNetworkAliases,
      schema: {
        tags,
        summary:
          "The application's own account on a network: the source of its deploy, invoke and TTL transactions",
        description:
          'Created on first use (its key sealed like every key) and funded by the friendbot where the network has ' +
          'one. On pubnet, send lumens to it before deploying or invoking.',
        response: {
          200: Type.Object({
            account: Type.String(),
            networkId: Type.Integer(),
            funded: Type.Boolean({ description: 'the account exists on the network' }),
            balance: Type.Union([Type.Number(), Type.Null()], { description: 'lumens' }),
            balanceStroops: Type.Union([Type.String(), Type.Null()]),
          }),
          ...errorResponses(networkCodes),
        },
      },
    },
    async (input, request) =>
      applicationAccountInfo(app.stellar, {
        application: applicationOf(request),
        networkId: input.networkId,
      }),
  );
}
