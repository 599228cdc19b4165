import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { applicationOf } from '../../applications/application-auth.ts';
import type { ErrorCode } from '../../platform/errors/codes.ts';
import { errorResponses } from '../../platform/http/error-body.ts';
import { IdempotencyHeaders, idempotencyOf } from '../../platform/http/idempotency-key.ts';
import { aliasBody, readRoute } from '../../platform/http/read-route.ts';
import { answerRepeatedKey } from '../idempotent-sends.ts';
import { commonAliases, sendOptionsOf, toBigInt } from '../request-fields.ts';
import { callView } from '../services/call-view.ts';
import { deployContract, estimateDeployContractGas } from '../services/deploy-contract.ts';
import { estimateContractCallGas, sendContractCall } from '../services/send-contract-call.ts';
import {
  DeployAnswer,
  DeployBody,
  DeployEstimateInput,
  EstimatedGas,
  MutableBody,
  MutableEstimateInput,
  SendAnswer,
  ViewInput,
} from './transact.schemas.ts';

const tags = ['evm: contracts'];

/** What can go wrong before a call reaches the node: the network, the ABI, the params, the address. */
export const callCodes: ErrorCode[] = [
  'CG_ERR_UNKNOWN_NETWORK',
  'CG_ERR_PLAN_FORBIDS',
  'CG_ERR_UNKNOWN_SPEC',
  'CG_ERR_UNKNOWN_CONTRACT',
  'CG_ERR_NOT_A_CONTRACT',
  'CG_ERR_UNKNOWN_METHOD',
  'CG_ERR_AMBIGUOUS_METHOD',
  'CG_ERR_PARAM_COUNT',
  'CG_ERR_INVALID_PARAM',
  'ERROR_NODE_UNREACHABLE',
];
const deployCodes: ErrorCode[] = [
  'CG_ERR_UNKNOWN_NETWORK',
  'CG_ERR_PLAN_FORBIDS',
  'CG_ERR_UNKNOWN_SPEC',
  'CG_ERR_NO_BYTECODE',
  'CG_ERR_PARAM_COUNT',
  'CG_ERR_INVALID_PARAM',
  'ERROR_NODE_UNREACHABLE',
];
const estimateCodes: ErrorCode[] = ['ERROR_EXECUTION_REVERTED', 'ERROR_INSUFICIENT_FUNDS'];
/** What the sending path adds: the sender's key, gas, fees, nonce and the node's answer. */
export const sendCodes: ErrorCode[] = [
  ...estimateCodes,
  'CG_ERR_UNKNOWN_SENDER',
  'ERROR_GAS_LIMIT_TOO_LOW',
  'ERROR_FEE_ABOVE_CEILING',
  'CG_ERR_BAD_NONCE',
  'ERROR_NONCE_CONFLICT',
  'ERROR_REPLACEMENT_UNDERPRICED',
  'ERROR_REJECTED_BY_NODE',
  'ERROR_NONCE_TOO_HIGH',
  'CG_ERR_NETWORK_UNSUPPORTED',
  'CG_ERR_IDEMPOTENCY_KEY_REUSED',
  'CG_ERR_IDEMPOTENCY_KEY_IN_USE',
];

export async function transactRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/contract/deploy',
    {
      preValidation: aliasBody(commonAliases),
      preHandler: answerRepeatedKey(() => app.evm),
      schema: {
        tags,
        summary: 'Deploy a stored contract; answers once the node accepted the transaction',
        headers: IdempotencyHeaders,
        body: DeployBody,
        response: { 201: DeployAnswer, ...errorResponses([...deployCodes, ...sendCodes]) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const deployed = await deployContract(app.evm, {
        application: applicationOf(request),
        chainId: body.blockchainNetwork,
        contractSpecsId: body.contractSpecsId,
        params: body.params ?? [],
        sender: body.sender,
        alias: body.alias,
        ...sendOptionsOf(body),
        idempotency: idempotencyOf(request),
      });
      return reply
        .status(201)
        .send({ contractAddress: deployed.contractAddress, txHash: deployed.txHash, nonce: deployed.nonce });
    },
  );

  app.post(
    '/transact/mutable',
    {
      preValidation: aliasBody(commonAliases),
      preHandler: answerRepeatedKey(() => app.evm),
      schema: {
        tags,
        summary: 'Send a state-changing call; answers once the node accepted the transaction',
        headers: IdempotencyHeaders,
        body: MutableBody,
        response: { 201: SendAnswer, ...errorResponses([...callCodes, ...sendCodes]) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const sent = await sendContractCall(app.evm, {
        application: applicationOf(request),
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

  readRoute(
    app,
    '/transact/view',
    {
      input: ViewInput,
      aliases: commonAliases,
      schema: {
        tags,
        summary: 'Query a view function: answers a JSON array of the return values, in order',
        description:
          'Integers are JSON number literals with all their digits (beyond 2^53 too: parse losslessly); addresses checksummed; bytes 0x-hex; ' +
          'structs are objects with their field names. A revert answers 400 ERROR_EXECUTION_REVERTED with the decoded reason, and so does a call the EVM stops (out of gas, an invalid opcode: `execution failed: …`). ' +
          'A node answer with JSON-RPC code 3 or -32015 (Nethermind\'s "VM execution error.", its reason read from `data`) counts as the EVM failing, whatever its wording; any other error the node answers is a 503.',
        response: {
          200: Type.Array(Type.Unknown()),
          ...errorResponses([...callCodes, 'ERROR_EXECUTION_REVERTED', 'CG_ERR_UNDECODABLE_RESULT']),
        },
      },
    },
    // Not async: the handler hands on callView's promise instead of wrapping it in another.
    (input, request) =>
      callView(app.evm, {
        application: applicationOf(request),
        chainId: input.blockchainNetwork,
        contractAddress: input.contractAddress,
        contractSpecsId: input.contractSpecsId,
        method: input.method,
        params: input.params ?? [],
        sender: input.sender,
      }),
  );

  readRoute(
    app,
    '/contract/deploy/estimategas',
    {
      input: DeployEstimateInput,
      aliases: commonAliases,
      schema: {
        tags,
        summary: 'Estimate the gas of a deployment (no key needed; any sender address)',
        response: { 200: EstimatedGas, ...errorResponses([...deployCodes, ...estimateCodes]) },
      },
    },
    async (input, request) => ({
      estimatedGas: Number(
        await estimateDeployContractGas(app.evm, {
          application: applicationOf(request),
          chainId: input.blockchainNetwork,
          contractSpecsId: input.contractSpecsId,
          params: input.params ?? [],
          sender: input.sender,
        }),
      ),
    }),
  );

  readRoute(
    app,
    '/transact/mutable/estimategas',
    {
      input: MutableEstimateInput,
      aliases: commonAliases,
      schema: {
        tags,
        summary: 'Estimate the gas of a state-changing call (no key needed; any sender address)',
        response: { 200: EstimatedGas, ...errorResponses([...callCodes, ...estimateCodes]) },
      },
    },
    async (input, request) => ({
      estimatedGas: Number(
        await estimateContractCallGas(app.evm, {
          application: applicationOf(request),
          chainId: input.blockchainNetwork,
          contractAddress: input.contractAddress,
          contractSpecsId: input.contractSpecsId,
          method: input.method,
          params: input.params ?? [],
          sender: input.sender,
          value: toBigInt(input.value, 'value'),
        }),
      ),
    }),
  );
}
