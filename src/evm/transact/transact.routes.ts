import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { type Address, encodeDeployData, encodeFunctionData, getAddress, type Hex } from 'viem';
import { applicationOf } from '../../applications/application-auth.ts';
import type { Application } from '../../applications/applications.service.ts';
import { errorResponses } from '../../platform/http/error-body.ts';
import { BadRequestError } from '../../platform/http/gateway-error.ts';
import { aliasBody, readRoute } from '../../platform/http/read-route.ts';
import type { Platform } from '../../platform/platform.ts';
import { coerceParams } from '../abi/coerce-params.ts';
import { decodeRevertReason, revertDataFromError } from '../abi/decode-revert.ts';
import { resolveConstructor, resolveFunction } from '../abi/resolve-function.ts';
import { decodeViewResult } from '../abi/to-json-value.ts';
import { recordDeployedContract } from '../engine/transactions.repository.ts';
import { resolveContractAbi, resolveSpec } from '../shared/contract-abi.ts';
import { estimateForEndpoint } from '../shared/estimate-for-endpoint.ts';
import { networkFor } from '../shared/network-access.ts';
import { commonAliases, toBigInt } from '../shared/request-fields.ts';
import { sendTransaction } from '../shared/send-transaction.ts';
import { standardAbis } from '../shared/standard-abis.ts';
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

/** Network, ABI, function and calldata of a call request (send, view or estimate), each checked. */
async function encodeContractCall(
  platform: Platform,
  application: Application,
  input: {
    blockchainNetwork: number;
    contractAddress: string;
    contractSpecsId?: number | undefined;
    method: string;
    params: unknown[];
  },
) {
  const network = networkFor(platform, application, input.blockchainNetwork);
  const contractAddress = checksum(input.contractAddress, 'contractAddress');
  const { spec, abi } = await resolveContractAbi(
    platform,
    application.id,
    network.chainId,
    contractAddress,
    input.contractSpecsId,
  );
  const fn = resolveFunction(abi, input.method, input.params.length);
  const args = coerceParams(fn.inputs, input.params, 'params', fn.name);
  const data = encodeFunctionData({ abi: [fn], functionName: fn.name, args } as never);
  return { network, contractAddress, spec, abi, fn, data };
}

function checksum(value: string, field: string): Address {
  try {
    return getAddress(value);
  } catch {
    throw new BadRequestError(
      `${field}: '${value}' has an invalid checksum (send it checksummed or all lower-case)`,
    );
  }
}

/** The creation calldata of a stored spec with its constructor params checked. */
async function encodeDeploy(
  platform: Platform,
  applicationId: string,
  input: { contractSpecsId: number; params: unknown[] },
) {
  const { spec, abi } = await resolveSpec(platform, applicationId, input.contractSpecsId);
  if (!spec.bytecode) {
    throw new BadRequestError(`contractSpecsId ${spec.id} has no bytecode to deploy`, 'CG_ERR_NO_BYTECODE');
  }
  const args = coerceParams(resolveConstructor(abi).inputs, input.params, 'params', 'constructor');
  const data = encodeDeployData({ abi, bytecode: spec.bytecode as Hex, args } as never);
  return { spec, abi, data };
}

/** The sending options deploy and mutable share, converted from the request. */
function sendOptionsOf(body: {
  sender: string;
  gasLimit?: number | string | undefined;
  useGasEstimation?: boolean | undefined;
  gasPrice?: number | undefined;
  priorityFee?: number | undefined;
  nonce?: number | undefined;
  myReference?: string | undefined;
}) {
  return {
    sender: checksum(body.sender, 'sender'),
    gasLimit: toBigInt(body.gasLimit),
    useGasEstimation: body.useGasEstimation ?? true,
    gasPriceGwei: body.gasPrice,
    priorityFeeGwei: body.priorityFee,
    nonce: body.nonce,
    myReference: body.myReference,
  };
}

export async function transactRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/core/v1/evm/contract/deploy',
    {
      preValidation: aliasBody(commonAliases),
      schema: {
        tags,
        summary: 'Deploy a stored contract; answers once the node accepted the transaction',
        body: DeployBody,
        response: { 201: DeployAnswer, ...errorResponses(400, 401, 403, 503) },
      },
    },
    async (request, reply) => {
      const application = applicationOf(request);
      const body = request.body;
      const network = networkFor(app.platform, application, body.blockchainNetwork);
      const { spec, abi, data } = await encodeDeploy(app.platform, application.id, body);
      const sent = await sendTransaction(app.platform, app.txEngine, {
        application,
        network,
        ...sendOptionsOf(body),
        kind: 'deploy',
        to: undefined,
        data,
        value: 0n,
        specId: spec.id,
        method: 'constructor',
        abis: [abi, ...standardAbis()],
      });
      const contractAddress = sent.contractAddress as Address;
      await recordDeployedContract(app.platform.db, {
        chainId: network.chainId,
        address: contractAddress,
        applicationId: application.id,
        specId: spec.id,
        alias: body.alias ?? null,
        transactionId: sent.id,
      });
      return reply.status(201).send({ contractAddress, txHash: sent.txHash, nonce: sent.nonce });
    },
  );

  app.post(
    '/core/v1/evm/transact/mutable',
    {
      preValidation: aliasBody(commonAliases),
      schema: {
        tags,
        summary: 'Send a state-changing call; answers once the node accepted the transaction',
        body: MutableBody,
        response: { 201: SendAnswer, ...errorResponses(400, 401, 403, 503) },
      },
    },
    async (request, reply) => {
      const application = applicationOf(request);
      const body = request.body;
      const { network, contractAddress, spec, abi, fn, data } = await encodeContractCall(
        app.platform,
        application,
        body,
      );
      const sent = await sendTransaction(app.platform, app.txEngine, {
        application,
        network,
        ...sendOptionsOf(body),
        kind: 'call',
        to: contractAddress,
        data,
        value: toBigInt(body.value) ?? 0n,
        specId: spec.id,
        method: fn.name,
        abis: [abi, ...standardAbis()],
      });
      return reply.status(201).send({ txHash: sent.txHash, nonce: sent.nonce });
    },
  );

  readRoute(
    app,
    '/core/v1/evm/transact/view',
    {
      input: ViewInput,
      aliases: commonAliases,
      schema: {
        tags,
        summary: 'Query a view function: answers a JSON array of the return values, in order',
        description:
          'Integers within ±(2^53−1) are JSON numbers, larger ones decimal strings; addresses checksummed; bytes 0x-hex; ' +
          'structs are objects with their field names. A revert answers 400 with the decoded reason.',
        response: { 200: Type.Array(Type.Unknown()), ...errorResponses(400, 401, 403, 503) },
      },
    },
    async (input, request) => {
      const { network, contractAddress, abi, fn, data } = await encodeContractCall(
        app.platform,
        applicationOf(request),
        input,
      );
      let result: Hex;
      try {
        result = (await network.client.request({
          method: 'eth_call',
          params: [
            {
              to: contractAddress,
              data,
              ...(input.sender ? { from: checksum(input.sender, 'sender') } : {}),
            },
            'latest',
          ],
        })) as Hex;
      } catch (error) {
        const reason = decodeRevertReason([abi, ...standardAbis()], revertDataFromError(error));
        if (reason || /revert/i.test((error as Error).message)) {
          throw new BadRequestError(
            `execution reverted${reason ? `: ${reason.reason}` : ''}`,
            'ERROR_EXECUTION_REVERTED',
          );
        }
        throw error;
      }
      if (result === '0x' && fn.outputs.length > 0) {
        throw new BadRequestError(
          `contractAddress ${contractAddress} returned no data: is it a contract on network ${network.chainId}?`,
        );
      }
      try {
        return decodeViewResult(fn, result);
      } catch {
        throw new BadRequestError(
          `the answer of ${contractAddress} does not decode as the outputs of ${fn.name}: is contractSpecsId the right ABI?`,
          'CG_ERR_UNDECODABLE_RESULT',
        );
      }
    },
  );

  readRoute(
    app,
    '/core/v1/evm/contract/deploy/estimategas',
    {
      input: DeployEstimateInput,
      aliases: commonAliases,
      schema: {
        tags,
        summary: 'Estimate the gas of a deployment (no key needed; any sender address)',
        response: { 200: EstimatedGas, ...errorResponses(400, 401, 403, 503) },
      },
    },
    async (input, request) => {
      const application = applicationOf(request);
      const network = networkFor(app.platform, application, input.blockchainNetwork);
      const { abi, data } = await encodeDeploy(app.platform, application.id, input);
      return estimateForEndpoint(
        network,
        { from: checksum(input.sender, 'sender'), to: undefined, data, value: 0n },
        [abi],
      );
    },
  );

  readRoute(
    app,
    '/core/v1/evm/transact/mutable/estimategas',
    {
      input: MutableEstimateInput,
      aliases: commonAliases,
      schema: {
        tags,
        summary: 'Estimate the gas of a state-changing call (no key needed; any sender address)',
        response: { 200: EstimatedGas, ...errorResponses(400, 401, 403, 503) },
      },
    },
    async (input, request) => {
      const { network, contractAddress, abi, data } = await encodeContractCall(
        app.platform,
        applicationOf(request),
        input,
      );
      return estimateForEndpoint(
        network,
        {
          from: checksum(input.sender, 'sender'),
          to: contractAddress,
          data,
          value: toBigInt(input.value) ?? 0n,
        },
        [abi],
      );
    },
  );
}
