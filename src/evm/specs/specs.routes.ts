import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { applicationOf } from '../../applications/application-auth.ts';
import { errorResponses } from '../../platform/http/error-body.ts';
import { BadRequestError, ForbiddenError } from '../../platform/http/gateway-error.ts';
import { validateAbi } from './abi-validation.ts';
import { insertOwnedSpec, listVisibleSpecs } from './contract-specs.repository.ts';

const ContractSpec = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  owned: Type.Boolean({ description: 'true when the spec belongs to the caller' }),
  shared: Type.Boolean({ description: 'true when every application can use it' }),
  audited: Type.Boolean({ description: 'true for the audited standard contracts' }),
});

const UploadSpecBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  abi: Type.Union([Type.Array(Type.Object({}, { additionalProperties: true })), Type.String()], {
    description: 'The contract ABI as a JSON array (or a string holding that JSON)',
  }),
  bytecode: Type.Optional(
    Type.String({
      pattern: '^0x([0-9a-fA-F]{2})+$',
      description: 'Creation bytecode; needed only to deploy',
    }),
  ),
});

export async function specsRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['evm: info'];

  app.get(
    '/core/v1/evm/info/specs',
    {
      schema: {
        tags,
        summary: 'List contract specs: the shared standard contracts and the caller’s own',
        response: { 200: Type.Array(ContractSpec), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const application = applicationOf(request);
      const rows = await listVisibleSpecs(app.platform.db, application.id);
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        description: row.description,
        owned: row.owner_application_id === application.id,
        shared: row.shared,
        audited: row.audited,
      }));
    },
  );

  app.post(
    '/core/v1/evm/info/specs',
    {
      schema: {
        tags,
        summary: 'Upload an own contract spec (premium plans only)',
        description:
          'Stores an ABI (and optionally creation bytecode, to deploy it) for the calling application. ' +
          'Free plans get 403. An ABI that is not a valid JSON ABI gets 400 naming the bad item.',
        body: UploadSpecBody,
        response: { 201: Type.Object({ id: Type.Integer() }), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const application = applicationOf(request);
      if (application.plan !== 'premium') {
        throw new ForbiddenError('uploading contract specs needs a premium plan', 'CG_ERR_PLAN_FORBIDS');
      }
      let abi: unknown = request.body.abi;
      if (typeof abi === 'string') {
        try {
          abi = JSON.parse(abi);
        } catch {
          throw new BadRequestError('abi is a string but not valid JSON', 'CG_ERR_INVALID_ABI');
        }
      }
      const id = await insertOwnedSpec(app.platform.db, {
        applicationId: application.id,
        name: request.body.name,
        description: request.body.description ?? '',
        abi: validateAbi(abi),
        bytecode: request.body.bytecode ?? null,
      });
      return reply.status(201).send({ id });
    },
  );
}
