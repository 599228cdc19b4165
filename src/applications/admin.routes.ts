import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { getAddress } from 'viem';
import { listApplicationAccounts } from '../platform/custody/evm-accounts.repository.ts';
import { errorResponses } from '../platform/http/error-body.ts';
import { verifyAdminToken } from './admin-token.ts';
import { listApplications } from './applications.repository.ts';
import { addSender, createApplication, rotateApiKey } from './applications.service.ts';

const Plan = Type.Union([Type.Literal('free'), Type.Literal('premium')], {
  description: '`free` sees test networks only; `premium` may use main networks and upload contract specs',
});
const ApplicationIdParams = Type.Object({ applicationId: Type.String({ format: 'uuid' }) });
const Address = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' });
const tags = ['admin'];
const security = [{ adminToken: [] }];

/** Operator API, authenticated by the admin token (`Authorization: Bearer <adminToken>`). */
export async function adminRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onRequest', async (request) => verifyAdminToken(app.platform.db, request.headers));

  app.post(
    '/admin/v1/applications',
    {
      schema: {
        tags,
        security,
        summary: 'Create an application with its API key and a default sender (funded on the devnet)',
        body: Type.Object(
          { name: Type.String({ minLength: 1, maxLength: 200 }), plan: Plan },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({ applicationId: Type.String(), apiKey: Type.String(), sender: Address }),
          ...errorResponses([]),
        },
      },
    },
    async (request, reply) => reply.status(201).send(await createApplication(app.platform, request.body)),
  );

  app.get(
    '/admin/v1/applications',
    {
      schema: {
        tags,
        security,
        summary: 'List applications (API keys are shown only by their last characters)',
        response: {
          200: Type.Array(
            Type.Object({
              applicationId: Type.String(),
              name: Type.String(),
              plan: Plan,
              apiKeyHint: Type.String(),
              createdAt: Type.String(),
              senders: Type.Array(Address),
            }),
          ),
          ...errorResponses([]),
        },
      },
    },
    async () => {
      const rows = await listApplications(app.platform.db);
      return Promise.all(
        rows.map(async (row) => ({
          applicationId: row.id,
          name: row.name,
          plan: row.plan,
          apiKeyHint: row.api_key_hint,
          createdAt: new Date(row.created_at).toISOString(),
          senders: (await listApplicationAccounts(app.platform.db, row.id, 'sender')).map((s) =>
            getAddress(s.address),
          ),
        })),
      );
    },
  );

  app.post(
    '/admin/v1/applications/:applicationId/rotate-key',
    {
      schema: {
        tags,
        security,
        summary: 'Replace the API key; the old one stops working at once on this server',
        params: ApplicationIdParams,
        response: {
          200: Type.Object({ applicationId: Type.String(), apiKey: Type.String() }),
          ...errorResponses(['CG_ERR_UNKNOWN_APPLICATION']),
        },
      },
    },
    async (request) => {
      const apiKey = await rotateApiKey(app.platform, request.params.applicationId);
      app.applicationAuthenticator.forget(request.params.applicationId);
      return { applicationId: request.params.applicationId, apiKey };
    },
  );

  app.post(
    '/admin/v1/applications/:applicationId/senders',
    {
      schema: {
        tags,
        security,
        summary: 'Add a sender account (key generated and encrypted by the service)',
        params: ApplicationIdParams,
        response: {
          201: Type.Object({ applicationId: Type.String(), sender: Address }),
          ...errorResponses(['CG_ERR_UNKNOWN_APPLICATION']),
        },
      },
    },
    async (request, reply) => {
      const sender = await addSender(app.platform, request.params.applicationId);
      return reply.status(201).send({ applicationId: request.params.applicationId, sender });
    },
  );
}
