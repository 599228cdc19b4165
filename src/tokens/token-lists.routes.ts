import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { applicationOf } from '../applications/application-auth.ts';
import { errorResponses } from '../platform/http/error-body.ts';
import { readRoute } from '../platform/http/read-route.ts';
import { tokenAliases } from './token.schemas.ts';
import { listTokenContracts } from './token-contracts.service.ts';
import { listTokenHolders } from './token-holders.service.ts';
import { ContractsAnswer, ContractsInput, HoldersAnswer, HoldersInput } from './token-lists.schemas.ts';
import { standardLabels, standardPaths, type TokenStandard, tokenStandards } from './token-standards.ts';
import { toUint256 } from './token-units.ts';

const DEFAULT_PAGE_SIZE = 100;

/** Beyond the spec: per standard, the application's contracts and the holders of one of them. */
export async function tokenListRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  for (const standard of tokenStandards) {
    const path = standardPaths[standard];
    const label = standardLabels[standard];
    const tags = [`tokens: ${label}`];
    const withId = standard === 'ERC1155' || standard === 'POAP';
    // An ERC-1155 path also serves the POAP contracts (which are ERC-1155 contracts).
    const accepts: TokenStandard[] = standard === 'ERC1155' ? ['ERC1155', 'POAP'] : [standard];

    readRoute(
      app,
      `/${path}/contracts`,
      {
        input: ContractsInput,
        aliases: tokenAliases,
        schema: {
          tags,
          summary: `The ${label} contracts this application deployed, newest first (beyond the spec)`,
          description: 'Alias, address, network, standard and the status of the deploy transaction.',
          response: {
            200: ContractsAnswer,
            ...errorResponses(['CG_ERR_UNKNOWN_NETWORK', 'CG_ERR_PLAN_FORBIDS']),
          },
        },
      },
      async (input, request) => {
        const page = input.page ?? 1;
        const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
        const listed = await listTokenContracts(app.evm, {
          application: applicationOf(request),
          standard,
          chainId: input.network,
          page,
          pageSize,
        });
        return { page, pageSize, ...listed };
      },
    );

    readRoute(
      app,
      `/${path}/holders`,
      {
        input: HoldersInput(withId),
        aliases: tokenAliases,
        schema: {
          tags,
          summary: `Holders and balances of a ${label} contract this application deployed, largest first (beyond the spec)`,
          description:
            'Built from the contract’s transfer logs (eth_getLogs from its deploy block, in bounded ranges) and kept up ' +
            'to date on each read from where the last read stopped, up to the confirmed head. ' +
            (withId
              ? 'One row per holder and id; `id` narrows to one id.'
              : 'One row per holder; for ERC-721 the balance is the number of NFTs owned.'),
          response: {
            200: HoldersAnswer(withId),
            ...errorResponses([
              'CG_ERR_UNKNOWN_NETWORK',
              'CG_ERR_PLAN_FORBIDS',
              'CG_ERR_NOT_FOUND',
              'CG_ERR_WRONG_TOKEN_STANDARD',
              'ERROR_NODE_UNREACHABLE',
            ]),
          },
        },
      },
      async (input, request) => {
        const page = input.page ?? 1;
        const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
        const id = (input as { id?: string | number }).id;
        const listed = await listTokenHolders(app.evm, {
          application: applicationOf(request),
          chainId: input.network,
          contractAddress: input.contractAddress,
          accepts,
          tokenId: id === undefined ? undefined : toUint256(id, 'id'),
          page,
          pageSize,
        });
        return {
          contractAddress: listed.contractAddress,
          network: input.network,
          standard: listed.standard,
          scannedBlock: listed.scannedBlock === null ? null : Number(listed.scannedBlock),
          upToDate: listed.upToDate,
          page,
          pageSize,
          total: listed.total,
          holders: listed.holders.map((holder) => ({
            address: holder.address,
            ...(withId ? { id: holder.tokenId ?? 0n } : {}),
            balance: holder.balance,
            balanceString: holder.balance.toString(),
          })),
        };
      },
    );
  }
}
