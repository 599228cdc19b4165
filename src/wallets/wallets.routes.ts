import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { formatUnits } from 'viem';
import { applicationOf } from '../applications/application-auth.ts';
import { answerRepeatedKey } from '../evm/idempotent-sends.ts';
import { commonAliases, sendOptionsOf, toBigInt } from '../evm/request-fields.ts';
import { callCodes, sendCodes } from '../evm/transact/transact.routes.ts';
import type { ErrorCode } from '../platform/errors/codes.ts';
import { errorResponses } from '../platform/http/error-body.ts';
import { IdempotencyHeaders, idempotencyOf } from '../platform/http/idempotency-key.ts';
import { aliasBody, readRoute } from '../platform/http/read-route.ts';
import { retryAfterOnErrors } from './retry-after.ts';
import { createWalletHash } from './services/create-wallet-hash.ts';
import { getWalletAddress, listCustodiedWallets } from './services/find-wallets.ts';
import { sendFromWallet, transferFromWallet } from './services/send-from-wallet.ts';
import { sendSignatureCode } from './services/send-signature-code.ts';
import {
  AddressAnswer,
  AddressInput,
  CustodiedMutableBody,
  CustodiedTransferInput,
  HashNewAnswer,
  HashNewBody,
  ListInput,
  OtpQuery,
  pinText,
  SendAnswer,
  StrategyQuery,
  WalletEntry,
} from './wallets.schemas.ts';

const tags = ['custodied wallets'];

/** What the unlock of a custodied send can answer. */
const unlockCodes: ErrorCode[] = [
  'CG_ERR_UNKNOWN_WALLET',
  'CG_ERR_WRONG_STRATEGY',
  'CG_ERR_INVALID_PIN',
  'CG_ERR_WALLET_LOCKED',
];
/** The spec's paths of the two sends, and the `/cwll/v1/…` paths existing clients also call. */
const sendPrefixes = ['/core/v1/evm/wallet/custodied', '/cwll/v1/evm/wallet/custodied'];

/** The custodied-wallet API of document 1 (application credentials), at its full paths. */
export async function walletRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  retryAfterOnErrors(app);

  app.post(
    '/cwll/v1/hash/new',
    {
      schema: {
        tags,
        summary: 'Create a wallet hash: a single-use link to the wallet page for one user',
        description:
          'The user then opens `{wallet_url}/?hash=<hash>&username=<email>` (also answered as `walletUrl`) and creates the ' +
          'wallet with one of `strategies`. The hash expires after 30 minutes (`CHAINGATE_WALLET_HASH_TTL_SECONDS`). ' +
          'A user who already has a wallet in this application gets 409.',
        body: HashNewBody,
        response: { 201: HashNewAnswer, ...errorResponses(['CG_ERR_WALLET_EXISTS']) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await createWalletHash(app.wallets, { application: applicationOf(request), ...request.body })),
  );

  readRoute(
    app,
    '/cwll/v1/evm/wallet/custodied/address',
    {
      input: AddressInput,
      schema: {
        tags,
        summary:
          'The address and strategy of a user’s custodied wallet (GET with a JSON body, POST, or GET ?userEmail=)',
        response: { 200: AddressAnswer, ...errorResponses(['CG_ERR_UNKNOWN_WALLET']) },
      },
    },
    async (input, request) =>
      getWalletAddress(app.wallets, { application: applicationOf(request), userEmail: input.userEmail }),
  );

  readRoute(
    app,
    '/cwll/v1/evm/wallet/custodied/list',
    {
      input: ListInput,
      schema: {
        tags,
        summary:
          'The application’s custodied wallets, oldest first: a bare JSON array (`o` offset, `n` count ≤ 100)',
        response: { 200: Type.Array(WalletEntry), ...errorResponses([]) },
      },
    },
    async (input, request) =>
      listCustodiedWallets(app.wallets, {
        application: applicationOf(request),
        offset: input.o,
        count: input.n,
      }),
  );

  app.post(
    '/cwll/v1/2fa/signature/otp/new',
    {
      schema: {
        tags,
        summary:
          'E-mail the user of a strategy-3 wallet a code that signs one transaction (6 digits, 120 s, single use)',
        querystring: OtpQuery,
        response: {
          201: Type.Null({ description: 'the code was e-mailed; no body' }),
          ...errorResponses([
            'CG_ERR_UNKNOWN_WALLET',
            'CG_ERR_WRONG_STRATEGY',
            'CG_ERR_WALLET_LOCKED',
            'CG_ERR_MAIL_FAILED',
          ]),
        },
      },
    },
    async (request, reply) => {
      await sendSignatureCode(app.wallets, {
        application: applicationOf(request),
        email: request.query.email,
      });
      // The spec's answer has no body at all (not even `null`).
      return reply.status(201).send(undefined as never);
    },
  );

  for (const prefix of sendPrefixes) {
    const alias = prefix.startsWith('/cwll') ? ' (alias of the `/core/v1/evm/wallet/custodied/…` path)' : '';
    app.post(
      `${prefix}/transact/mutable`,
      {
        preValidation: aliasBody(commonAliases),
        preHandler: answerRepeatedKey(() => app.wallets.evm),
        schema: {
          tags,
          summary: `Send a state-changing call from a custodied wallet${alias}`,
          headers: IdempotencyHeaders,
          description:
            '`strategy` (query) must be the wallet’s strategy and `pin` its PIN or a fresh code; then the call goes ' +
            'through the same sending path as `transact/mutable`. A code is spent by the attempt even if the send then fails.',
          querystring: StrategyQuery,
          body: CustodiedMutableBody,
          response: { 201: SendAnswer, ...errorResponses([...unlockCodes, ...callCodes, ...sendCodes]) },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const sent = await sendFromWallet(app.wallets, {
          application: applicationOf(request),
          strategy: request.query.strategy,
          pin: pinText(body.pin),
          chainId: body.blockchainNetwork,
          contractAddress: body.contractAddress,
          contractSpecsId: body.contractSpecsId,
          method: body.method,
          params: body.params ?? [],
          sender: body.sender,
          value: toBigInt(body.value, 'value'),
          ...sendOptionsOf(body),
          idempotency: idempotencyOf(request),
        });
        return reply.status(201).send({ txHash: sent.txHash, nonce: sent.nonce });
      },
    );

    await app.register(async (transfer) => {
      // The spec puts `strategy` in the query string; a POST body is validated alone, so it joins the body.
      transfer.addHook('preValidation', async (request) => {
        const body = request.body as Record<string, unknown> | undefined;
        const query = request.query as Record<string, unknown>;
        if (request.method === 'POST' && body && typeof body === 'object' && !Array.isArray(body))
          if (body.strategy === undefined && query.strategy !== undefined)
            // Query text joins a body validated without coercion: a decimal is read as its number.
            body.strategy =
              typeof query.strategy === 'string' && /^\d{1,9}$/.test(query.strategy)
                ? Number(query.strategy)
                : query.strategy;
      });
      readRoute(
        transfer,
        `${prefix}/transfer`,
        {
          input: CustodiedTransferInput,
          aliases: commonAliases,
          preHandler: answerRepeatedKey(() => app.wallets.evm),
          schema: {
            tags,
            summary: `Send native coin from a custodied wallet${alias}`,
            headers: IdempotencyHeaders,
            description:
              'GET or POST, as the spec. `gasPrice` is in WEI here (as the spec), `priorityFee` in GWEI. Unlocked as ' +
              '`transact/mutable` is, then sent through the same path as every other transaction.',
            response: {
              201: SendAnswer,
              ...errorResponses([
                ...unlockCodes,
                'CG_ERR_UNKNOWN_NETWORK',
                'CG_ERR_PLAN_FORBIDS',
                ...sendCodes,
              ]),
            },
          },
        },
        async (input, request, reply) => {
          const sent = await transferFromWallet(app.wallets, {
            application: applicationOf(request),
            strategy: input.strategy,
            pin: pinText(input.pin),
            chainId: input.blockchainNetwork,
            sender: input.sender,
            recipient: input.recipient,
            value: toBigInt(input.value, 'value') as bigint,
            ...sendOptionsOf({
              gasLimit: input.gasLimit,
              priorityFee: input.priorityFee,
              nonce: input.nonce,
              myReference: input.myReference,
            }),
            gasPriceGwei:
              input.gasPrice === undefined ? undefined : Number(formatUnits(BigInt(input.gasPrice), 9)),
            idempotency: idempotencyOf(request),
          });
          return reply.status(201).send({ txHash: sent.txHash, nonce: sent.nonce });
        },
      );
    });
  }
}
