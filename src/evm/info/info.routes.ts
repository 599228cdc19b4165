import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Abi, Hex } from 'viem';
import { applicationOf } from '../../applications/application-auth.ts';
import { errorResponses } from '../../platform/http/error-body.ts';
import { NotFoundError } from '../../platform/http/gateway-error.ts';
import { loadStandardContracts } from '../contract-library/standard-contracts.ts';
import {
  findApplicationTransactionByHash,
  findDeployedContract,
  listByReference,
} from '../engine/transactions.repository.ts';
import { resolveSpec } from '../shared/contract-abi.ts';
import { networkFor } from '../shared/network-access.ts';
import { AddressField, ChainIdField, SpecIdField, TxHashField } from '../shared/request-fields.ts';
import { StatusRecord, TransactionInformation } from './info.schemas.ts';
import { readTransactionInformation } from './transaction-information.ts';
import { toStatusRecord } from './transaction-status.ts';

const tags = ['evm: info'];
const NetworkQuery = Type.Object({ network: ChainIdField });

export async function infoRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/core/v1/evm/info/address/:address/iscontract',
    {
      schema: {
        tags,
        summary: 'Whether an address holds contract code',
        params: Type.Object({ address: AddressField() }),
        querystring: NetworkQuery,
        response: { 200: Type.Object({ isContract: Type.Boolean() }), ...errorResponses(400, 401, 403, 503) },
      },
    },
    async (request) => {
      const network = networkFor(app.platform, applicationOf(request), request.query.network, 'network');
      const code = await network.client.getCode({ address: request.params.address.toLowerCase() as Hex });
      return { isContract: code !== undefined && code !== '0x' };
    },
  );

  app.get(
    '/core/v1/evm/info/transaction/:txHash',
    {
      schema: {
        tags,
        summary: 'Full transaction information read from the chain, decoded where the ABI is known',
        description:
          'Input data and logs are decoded with the spec given by contractSpecsId, else the spec the transaction was ' +
          'sent or deployed with through chaingate, else the standard contracts. errorInfo codes: ERROR_INSUFICIENT_FUNDS, ' +
          'ERROR_EVM_REVERTED, ERROR_EXECUTION_REVERTED (estimation), ERROR_GAS_LIMIT_TOO_LOW, ERROR_NODE_UNREACHABLE, ' +
          'ERROR_REJECTED_BY_NODE, ERROR_REPLACED, ERROR_NONCE_CONFLICT, ERROR_NONCE_TOO_HIGH (the node kept refusing ' +
          'the nonce as too high; the nonce is re-used by the next send). An unknown hash answers 404.',
        params: Type.Object({ txHash: TxHashField }),
        querystring: Type.Object({
          network: ChainIdField,
          contractSpecsId: Type.Optional(SpecIdField()),
        }),
        response: { 200: TransactionInformation, ...errorResponses(400, 401, 403, 404, 503) },
      },
    },
    async (request) => {
      const application = applicationOf(request);
      const network = networkFor(app.platform, application, request.query.network, 'network');
      const hash = request.params.txHash.toLowerCase() as Hex;
      const record = await findApplicationTransactionByHash(
        app.platform.db,
        application.id,
        network.chainId,
        hash,
      );
      const abis: Abi[] = [];
      const bytecodes: Array<Hex | null> = [];
      const addSpec = async (id: number) => {
        const { spec, abi } = await resolveSpec(app.platform, application.id, id);
        abis.push(abi);
        bytecodes.push((spec.bytecode as Hex | null) ?? null);
      };
      if (request.query.contractSpecsId !== undefined) await addSpec(request.query.contractSpecsId);
      if (record?.spec_id) await addSpec(record.spec_id).catch(() => {});
      if (record?.to_address) {
        const deployed = await findDeployedContract(app.platform.db, network.chainId, record.to_address);
        if (deployed) await addSpec(deployed.spec_id).catch(() => {});
      }
      for (const standard of loadStandardContracts()) {
        abis.push(standard.abi);
        bytecodes.push(standard.bytecode);
      }
      const info = await readTransactionInformation(network, hash, abis, bytecodes, record);
      if (!info)
        throw new NotFoundError(
          `transaction ${hash} not found on network ${network.chainId}`,
          'CG_ERR_UNKNOWN_TRANSACTION',
        );
      return info;
    },
  );

  app.get(
    '/core/v1/evm/info/transaction/:txHash/status',
    {
      schema: {
        tags,
        summary: 'Platform status of a transaction sent by this application (any hash it was signed with)',
        params: Type.Object({ txHash: TxHashField }),
        querystring: NetworkQuery,
        response: { 200: StatusRecord, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const application = applicationOf(request);
      const network = networkFor(app.platform, application, request.query.network, 'network');
      const row = await findApplicationTransactionByHash(
        app.platform.db,
        application.id,
        network.chainId,
        request.params.txHash,
      );
      if (!row)
        throw new NotFoundError(
          `no transaction ${request.params.txHash} of this application on network ${network.chainId}`,
          'CG_ERR_UNKNOWN_TRANSACTION',
        );
      return toStatusRecord(row);
    },
  );

  app.get(
    '/core/v1/evm/info/transaction/reference/:reference',
    {
      schema: {
        tags,
        summary: 'Every transaction record carrying a myReference, oldest first (empty for an unknown one)',
        params: Type.Object({
          reference: Type.String({ pattern: '^[A-Za-z0-9]{1,128}$', description: 'alphanumeric, ≤ 128' }),
        }),
        response: {
          200: Type.Object({ reference: Type.String(), info: Type.Array(StatusRecord) }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const application = applicationOf(request);
      const rows = await listByReference(app.platform.db, application.id, request.params.reference);
      return { reference: request.params.reference, info: rows.map(toStatusRecord) };
    },
  );
}
