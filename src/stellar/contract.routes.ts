import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { applicationOf } from '../applications/application-auth.ts';
import type { ErrorCode } from '../platform/errors/codes.ts';
import { errorResponses } from '../platform/http/error-body.ts';
import { IdempotencyHeaders, idempotencyOf } from '../platform/http/idempotency-key.ts';
import { aliasBody } from '../platform/http/read-route.ts';
import { publicStatus } from './engine/transaction-record.ts';
import { answerRepeatedKey } from './idempotent-submissions.ts';
import { extendContractTtl } from './services/contract-ttl.ts';
import { deployContract, estimateDeployment } from './services/deploy-contract.ts';
import { estimateInvocation, invokeContract } from './services/invoke-contract.ts';
import {
  ContractAddressField,
  CostAnswer,
  MethodField,
  MyReferenceField,
  NetworkIdField,
  networkAliases,
  networkAliasNote,
  ParamsField,
  PendingAnswer,
  SpecsIdField,
} from './stellar.schemas.ts';

const tags = ['stellar: contracts'];
const networkCodes: ErrorCode[] = [
  'CG_ERR_UNKNOWN_NETWORK',
  'CG_ERR_PLAN_FORBIDS',
  'CG_ERR_STELLAR_UNREACHABLE',
];
const paramCodes: ErrorCode[] = ['CG_ERR_PARAM_COUNT', 'CG_ERR_INVALID_PARAM'];
const simulationCodes: ErrorCode[] = ['CG_ERR_STELLAR_CONTRACT_ERROR', 'CG_ERR_STELLAR_SIMULATION_FAILED'];
const sendCodes: ErrorCode[] = [
  'CG_ERR_STELLAR_AUTH_REQUIRED',
  'CG_ERR_STELLAR_INSUFFICIENT_BALANCE',
  'CG_ERR_STELLAR_REJECTED',
  'CG_ERR_IDEMPOTENCY_KEY_REUSED',
  'CG_ERR_IDEMPOTENCY_KEY_IN_USE',
];
const invokeAliases = { ...networkAliases, contract: 'address', contractAddress: 'address' };
const invokeAliasNote = `${networkAliasNote} \`contract\` and \`contractAddress\` for \`address\`.`;

const DeployBody = Type.Object(
  {
    contractSpecsId: SpecsIdField(),
    blockchainNetwork: NetworkIdField(),
    myReference: Type.Optional(MyReferenceField),
    params: Type.Optional(
      ParamsField('constructor (`__constructor`) parameters, in order; beyond document 3'),
    ),
  },
  { description: networkAliasNote },
);

const InvokeBody = Type.Object(
  {
    blockchainNetwork: NetworkIdField(),
    myReference: Type.Optional(MyReferenceField),
    restore: Type.Boolean({
      description: 'restore archived entries the invocation needs first (else they answer 400)',
    }),
    address: ContractAddressField('the contract'),
    method: MethodField,
    params: Type.Optional(ParamsField('function parameters, in order')),
  },
  { description: invokeAliasNote },
);

/** The use case's parameters from an invoke (or invoke estimate) body. */
function invocation(body: Static<typeof InvokeBody>, request: FastifyRequest) {
  return {
    application: applicationOf(request),
    networkId: body.blockchainNetwork,
    address: body.address,
    method: body.method,
    params: body.params ?? [],
    restore: body.restore,
  };
}

export async function contractRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/contract/deployment',
    {
      preValidation: aliasBody(networkAliases),
      preHandler: answerRepeatedKey(
        () => app.stellar,
        201,
        (stored) => ({
          address: stored.contractAddress,
          salt: stored.salt,
          status: 'PENDING',
          txHash: stored.txHash,
        }),
      ),
      schema: {
        tags,
        headers: IdempotencyHeaders,
        summary: 'Deploy a saved contract; answers once the creation is submitted',
        description:
          'Uploads the wasm first when the network does not have it yet (and waits for that ledger), restores it ' +
          "when it is archived, then creates the contract with a random salt from the application's account.",
        body: DeployBody,
        response: {
          201: Type.Object({
            address: Type.String({ description: 'the new contract (C…)' }),
            salt: Type.String({ description: 'the 32-byte salt, hex' }),
            status: Type.String({ enum: ['PENDING'] }),
            txHash: Type.String(),
          }),
          ...errorResponses([
            ...networkCodes,
            'CG_ERR_UNKNOWN_SPEC',
            ...paramCodes,
            ...simulationCodes,
            ...sendCodes,
          ]),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      return reply.status(201).send(
        await deployContract(app.stellar, {
          application: applicationOf(request),
          networkId: body.blockchainNetwork,
          contractSpecsId: body.contractSpecsId,
          params: body.params ?? undefined,
          myReference: body.myReference ?? undefined,
          idempotency: idempotencyOf(request),
        }),
      );
    },
  );

  app.post(
    '/contract/deployment/estimate',
    {
      preValidation: aliasBody(networkAliases),
      schema: {
        tags,
        summary: 'Simulated cost of deploying a saved contract, in lumens',
        description:
          '`uploadCost` is the wasm upload (0 when the network has it); `createCost` the creation, null when it ' +
          'cannot be simulated yet: before the wasm is on the network, or without the constructor `params`.',
        body: Type.Object(
          {
            contractSpecsId: SpecsIdField(),
            blockchainNetwork: NetworkIdField(),
            params: Type.Optional(ParamsField('constructor parameters, in order')),
          },
          { description: networkAliasNote },
        ),
        response: {
          201: Type.Object({
            ...CostAnswer.properties,
            uploadCost: Type.Number({ description: 'lumens' }),
            createCost: Type.Union([Type.Number(), Type.Null()], { description: 'lumens' }),
          }),
          ...errorResponses([...networkCodes, 'CG_ERR_UNKNOWN_SPEC', ...paramCodes, ...simulationCodes]),
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await estimateDeployment(app.stellar, {
          application: applicationOf(request),
          networkId: request.body.blockchainNetwork,
          contractSpecsId: request.body.contractSpecsId,
          params: request.body.params ?? undefined,
        }),
      ),
  );

  app.post(
    '/contract/invoke',
    {
      preValidation: aliasBody(invokeAliases),
      preHandler: answerRepeatedKey(
        () => app.stellar,
        200,
        (stored) => ({ txHash: stored.txHash, status: 'PENDING' }),
      ),
      schema: {
        tags,
        headers: IdempotencyHeaders,
        summary: 'Invoke a contract function; answers once the transaction is submitted',
        description:
          "`params` are converted with the contract's own spec (read from its wasm on the network). An invocation " +
          'that needs the authorization of an address whose key the service does not hold is refused with 400 ' +
          'before anything is signed.',
        body: InvokeBody,
        response: {
          200: PendingAnswer,
          ...errorResponses([
            ...networkCodes,
            'CG_ERR_STELLAR_UNKNOWN_CONTRACT',
            'CG_ERR_UNKNOWN_METHOD',
            ...paramCodes,
            ...simulationCodes,
            'CG_ERR_STELLAR_ARCHIVED',
            ...sendCodes,
          ]),
        },
      },
    },
    async (request) =>
      invokeContract(app.stellar, {
        ...invocation(request.body, request),
        myReference: request.body.myReference ?? undefined,
        idempotency: idempotencyOf(request),
      }),
  );

  app.post(
    '/contract/invoke/estimate',
    {
      preValidation: aliasBody(invokeAliases),
      schema: {
        tags,
        summary: 'Simulated cost of an invocation, in lumens, and of restoring what it needs',
        body: InvokeBody,
        response: {
          201: CostAnswer,
          ...errorResponses([
            ...networkCodes,
            'CG_ERR_STELLAR_UNKNOWN_CONTRACT',
            'CG_ERR_UNKNOWN_METHOD',
            ...paramCodes,
            ...simulationCodes,
          ]),
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await estimateInvocation(app.stellar, invocation(request.body, request))),
  );

  app.post(
    '/contract/invoke/extendttl',
    {
      preValidation: aliasBody({ ...invokeAliases, extendTo: 'extend_to' }),
      preHandler: answerRepeatedKey(
        () => app.stellar,
        200,
        (stored) => {
          const status = publicStatus(stored.state);
          return {
            txHash: stored.txHash,
            status,
            ...(status === 'FAILED' ? { error: stored.errorMessage ?? stored.errorCode ?? 'failed' } : {}),
          };
        },
      ),
      schema: {
        tags,
        headers: IdempotencyHeaders,
        summary: "Extend the TTL of a contract's instance and code to `extend_to` ledgers from now",
        description:
          'Waits up to 30 s for the ledger: SUCCESS, FAILED (with `error`), or PENDING when the network is slower. ' +
          `${invokeAliasNote} \`extendTo\` for \`extend_to\`.`,
        body: Type.Object({
          blockchainNetwork: NetworkIdField(),
          address: ContractAddressField('the contract to extend'),
          extend_to: Type.Integer({
            minimum: 1,
            maximum: 4_294_967_295,
            description: "ledgers the entries must live from now (within the network's maximum TTL)",
          }),
        }),
        response: {
          200: Type.Object({
            txHash: Type.String(),
            status: Type.String({ enum: ['PENDING', 'SUCCESS', 'FAILED'] }),
            error: Type.Optional(Type.String()),
          }),
          ...errorResponses([
            ...networkCodes,
            'CG_ERR_STELLAR_UNKNOWN_CONTRACT',
            'CG_ERR_STELLAR_ARCHIVED',
            ...simulationCodes,
            ...sendCodes,
          ]),
        },
      },
    },
    async (request) =>
      extendContractTtl(app.stellar, {
        application: applicationOf(request),
        networkId: request.body.blockchainNetwork,
        address: request.body.address,
        extendTo: request.body.extend_to,
        idempotency: idempotencyOf(request),
      }),
  );
}
