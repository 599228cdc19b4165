import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { formatEther, formatGwei, getAddress, type Hex } from 'viem';
import { applicationOf } from '../../applications/application-auth.ts';
import { errorResponses } from '../../platform/http/error-body.ts';
import { BadRequestError } from '../../platform/http/gateway-error.ts';
import { readRoute } from '../../platform/http/read-route.ts';
import { errorCodes, TransactionFailedError } from '../engine/engine-errors.ts';
import { estimateForEndpoint } from '../shared/estimate-for-endpoint.ts';
import { networkFor } from '../shared/network-access.ts';
import { AddressField, ChainIdField, commonAliases, UintField } from '../shared/request-fields.ts';

const tags = ['evm: chain'];

export async function chainRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/core/v1/evm/network/gasprice',
    {
      schema: {
        tags,
        summary: 'Current gas price: GWEI as a number (as the spec) and the exact wei as a string',
        querystring: Type.Object({ network: ChainIdField }),
        response: {
          200: Type.Object({ gasPriceGwei: Type.Number(), gasPriceWei: Type.String() }),
          ...errorResponses(400, 401, 403, 503),
        },
      },
    },
    async (request) => {
      const network = networkFor(app.platform, applicationOf(request), request.query.network, 'network');
      const wei = await network.client.getGasPrice();
      return { gasPriceGwei: Number(formatGwei(wei)), gasPriceWei: wei.toString() };
    },
  );

  app.get(
    '/core/v1/evm/chain/:account/balance',
    {
      schema: {
        tags,
        summary: 'Native balance: in ether-units as a number (as the spec) and the exact wei as a string',
        params: Type.Object({ account: AddressField() }),
        querystring: Type.Object({ network: ChainIdField }),
        response: {
          200: Type.Object({ balance: Type.Number(), balanceWei: Type.String() }),
          ...errorResponses(400, 401, 403, 503),
        },
      },
    },
    async (request) => {
      const network = networkFor(app.platform, applicationOf(request), request.query.network, 'network');
      const wei = await network.client.getBalance({ address: request.params.account.toLowerCase() as Hex });
      return { balance: Number(formatEther(wei)), balanceWei: wei.toString() };
    },
  );

  readRoute(
    app,
    '/core/v1/evm/chain/transfer/estimategas',
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
          ...errorResponses(400, 401, 403, 503),
        },
      },
    },
    async (input, request) => {
      const network = networkFor(app.platform, applicationOf(request), input.blockchainNetwork);
      let sender: Hex;
      let recipient: Hex;
      try {
        sender = getAddress(input.sender);
        recipient = getAddress(input.recipient);
      } catch {
        throw new BadRequestError('sender/recipient: invalid address checksum');
      }
      const value = BigInt(input.value);
      const estimate = await estimateForEndpoint(
        network,
        { from: sender, to: recipient, data: '0x', value },
        [],
      );
      // Some nodes (anvil) estimate without looking at the balance; the spec wants the check.
      const [balance, gasPrice] = await Promise.all([
        network.client.getBalance({ address: sender }),
        network.client.getGasPrice(),
      ]);
      if (balance < value + BigInt(estimate.estimatedGas) * gasPrice) {
        throw new TransactionFailedError(
          'insufficient funds for gas * price + value',
          errorCodes.insufficientFunds,
          400,
        );
      }
      return estimate;
    },
  );
}
