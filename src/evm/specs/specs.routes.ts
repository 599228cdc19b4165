import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { applicationOf } from '../../applications/application-auth.ts';
import { errorResponses } from '../../platform/http/error-body.ts';
import { SpecIdField } from '../request-fields.ts';
import { getSpec, listSpecs, uploadSpec } from '../services/contract-specs.ts';

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

const SpecDetail = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  owned: Type.Boolean(),
  shared: Type.Boolean(),
  audited: Type.Boolean(),
  deployable: Type.Boolean({ description: 'true when the spec has creation bytecode' }),
  constructor: Type.Object({
    signature: Type.String({
      description: 'e.g. `constructor(string name, string symbol, uint256 initialSupply)`',
    }),
    inputs: Type.Array(Type.Object({ name: Type.String(), type: Type.String() })),
  }),
  functions: Type.Array(
    Type.Object({
      name: Type.String(),
      signature: Type.String({ description: 'canonical, usable as `method` for an overload' }),
      readable: Type.String({ description: 'with parameter names' }),
      stateMutability: Type.String({ description: '`view`/`pure` are read with transact/view' }),
      outputs: Type.Array(Type.String()),
    }),
  ),
  events: Type.Array(Type.Object({ name: Type.String(), signature: Type.String(), readable: Type.String() })),
  abi: Type.Array(Type.Unknown()),
});

export async function specsRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['evm: info'];

  app.get(
    '/info/specs',
    {
      schema: {
        tags,
        summary: 'List contract specs: the shared standard contracts and the caller’s own',
        response: { 200: Type.Array(ContractSpec), ...errorResponses([]) },
      },
    },
    async (request) => listSpecs(app.evm, { application: applicationOf(request) }),
  );

  app.get(
    '/info/specs/:id',
    {
      schema: {
        tags,
        summary: 'One contract spec with its ABI, constructor and the signatures of its functions and events',
        description:
          'Beyond the spec: shows what to pass as `params` to deploy and call it. Another application’s spec is 404.',
        params: Type.Object({ id: SpecIdField() }),
        response: { 200: SpecDetail, ...errorResponses(['CG_ERR_NOT_FOUND']) },
      },
    },
    async (request) => getSpec(app.evm, { application: applicationOf(request), id: request.params.id }),
  );

  app.post(
    '/info/specs',
    {
      schema: {
        tags,
        summary: 'Upload an own contract spec (premium plans only)',
        description:
          'Stores an ABI (and optionally creation bytecode, to deploy it) for the calling application. ' +
          'Free plans get 403. An ABI that is not a valid JSON ABI gets 400 naming the bad item.',
        body: UploadSpecBody,
        response: {
          201: Type.Object({ id: Type.Integer() }),
          ...errorResponses(['CG_ERR_PLAN_FORBIDS', 'CG_ERR_INVALID_ABI']),
        },
      },
    },
    async (request, reply) => {
      const id = await uploadSpec(app.evm, { application: applicationOf(request), ...request.body });
      return reply.status(201).send({ id });
    },
  );
}
