import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { verifyAdminToken } from '../../applications/admin-token.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { errorResponses } from '../../platform/http/error-body.ts';
import { type CallbackKey, getCallbackKey, rotateCallbackKey } from './callback-keys.ts';
import { type DeliveryRow, listDeliveries, requeueDelivery } from './callbacks.repository.ts';
import { DELIVERY_WINDOW_MS } from './retry-schedule.ts';

const tags = ['admin'];
const security = [{ adminToken: [] }];
const ApplicationIdParams = Type.Object({ applicationId: Type.String({ format: 'uuid' }) });

const CallbackKeyAnswer = Type.Object({
  applicationId: Type.String(),
  callbackKey: Type.String({
    description:
      'the HMAC-SHA256 key (its UTF-8 bytes) of `X-Chaingate-Signature: sha256=<hex>` on this application’s callbacks',
  }),
  createdAt: Type.String({ description: 'ISO 8601' }),
});

const DeliveryState = Type.Union([
  Type.Literal('pending'),
  Type.Literal('delivered'),
  Type.Literal('failed'),
]);

const Delivery = Type.Object({
  id: Type.String(),
  applicationId: Type.String(),
  walletId: Type.String(),
  url: Type.String(),
  body: Type.String({ description: 'the raw JSON body that is signed and POSTed' }),
  state: DeliveryState,
  attempts: Type.Integer(),
  nextAttemptAt: Type.String({ description: 'ISO 8601; for a pending delivery, when it is tried next' }),
  giveUpAt: Type.String({ description: 'ISO 8601; a pending delivery is given up (failed) after this' }),
  lastStatus: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status of the last attempt' }),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  deliveredAt: Type.Union([Type.String(), Type.Null()]),
});

function toKeyAnswer(key: CallbackKey) {
  return {
    applicationId: key.applicationId,
    callbackKey: key.callbackKey,
    createdAt: key.createdAt.toISOString(),
  };
}

function toDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    applicationId: row.application_id,
    walletId: row.wallet_id,
    url: row.url,
    body: row.body,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at.toISOString(),
    giveUpAt: row.give_up_at.toISOString(),
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: row.created_at.toISOString(),
    deliveredAt: row.delivered_at?.toISOString() ?? null,
  };
}

/** Operator API of the wallet callbacks: each application's signing key, and the deliveries. */
export async function callbacksAdminRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onRequest', async (request) => verifyAdminToken(app.platform.db, request.headers));

  app.get(
    '/admin/v1/applications/:applicationId/callback-key',
    {
      schema: {
        tags,
        security,
        summary: 'The key that signs the application’s wallet callbacks (created on first use)',
        params: ApplicationIdParams,
        response: { 200: CallbackKeyAnswer, ...errorResponses(['CG_ERR_UNKNOWN_APPLICATION']) },
      },
    },
    async (request) =>
      toKeyAnswer(await getCallbackKey(app.platform, request.params.applicationId, app.wallets.clock.now())),
  );

  app.post(
    '/admin/v1/applications/:applicationId/callback-key/rotate',
    {
      schema: {
        tags,
        security,
        summary:
          'Replace the callback key; pending deliveries are signed with the new one from their next attempt',
        params: ApplicationIdParams,
        response: { 200: CallbackKeyAnswer, ...errorResponses(['CG_ERR_UNKNOWN_APPLICATION']) },
      },
    },
    async (request) =>
      toKeyAnswer(
        await rotateCallbackKey(app.platform, request.params.applicationId, app.wallets.clock.now()),
      ),
  );

  app.get(
    '/admin/v1/callbacks',
    {
      schema: {
        tags,
        security,
        summary: 'Wallet callback deliveries, newest first',
        querystring: Type.Object({
          applicationId: Type.Optional(Type.String({ format: 'uuid' })),
          state: Type.Optional(DeliveryState),
          o: Type.Optional(
            Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'offset (default 0)' }),
          ),
          n: Type.Optional(
            Type.Integer({ minimum: 1, maximum: 500, description: 'page size (default 100)' }),
          ),
        }),
        response: { 200: Type.Array(Delivery), ...errorResponses([]) },
      },
    },
    async (request) =>
      (
        await listDeliveries(app.platform.db, {
          applicationId: request.query.applicationId,
          state: request.query.state,
          offset: request.query.o ?? 0,
          limit: request.query.n ?? 100,
        })
      ).map(toDelivery),
  );

  app.post(
    '/admin/v1/callbacks/:deliveryId/replay',
    {
      schema: {
        tags,
        security,
        summary: 'Deliver a callback again now (delivered or given up alike), retried for another 24 h',
        params: Type.Object({ deliveryId: Type.String({ format: 'uuid' }) }),
        response: { 200: Delivery, ...errorResponses(['CG_ERR_NOT_FOUND']) },
      },
    },
    async (request) => {
      const now = app.wallets.clock.now();
      const row = await requeueDelivery(
        app.platform.db,
        request.params.deliveryId,
        new Date(now),
        new Date(now + DELIVERY_WINDOW_MS),
      );
      if (!row)
        throw new ChaingateError('CG_ERR_NOT_FOUND', `deliveryId: no delivery ${request.params.deliveryId}`);
      app.wallets.callbacksDue();
      return toDelivery(row);
    },
  );
}
