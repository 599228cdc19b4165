import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { checksumAddress } from '../evm/services/encode-contract-call.ts';
import {
  Erc1155BalanceInput,
  Erc1155DeployBody,
  Erc1155MintBatchBody,
  Erc1155MintBody,
  Erc1155TokenInput,
  Erc1155TransferBatchBody,
  Erc1155TransferBody,
} from './erc1155.schemas.ts';
import {
  deployErc1155,
  erc1155Kinds,
  mintBatchErc1155,
  mintErc1155,
  transferBatchErc1155,
  transferErc1155,
} from './erc1155.service.ts';
import { UintAnswer } from './token.schemas.ts';
import { readTokenValue } from './token-reads.ts';
import { tokenDeployRoute, tokenReadRoute, tokenSendRoute } from './token-route.ts';
import type { TokenStandard } from './token-standards.ts';
import { toUint256 } from './token-units.ts';

const tags = ['tokens: ERC-1155'];

/** The two reads of an ERC-1155 id, shared with the POAP paths (a POAP contract is an ERC-1155). */
export function erc1155ReadRoutes(
  app: FastifyInstance,
  options: { path: string; tags: string[]; accepts: readonly TokenStandard[]; note: string },
): void {
  tokenReadRoute(
    app,
    `/${options.path}/balanceOf`,
    {
      tags: options.tags,
      summary: `Units of \`id\` held by \`address\` (${options.note})`,
      input: Erc1155BalanceInput,
      response: UintAnswer('balance', 'units held'),
    },
    async (input, application) => {
      const balance = await readTokenValue<bigint>(app.evm, {
        application,
        chainId: input.network,
        contractAddress: input.contractAddress,
        accepts: options.accepts,
        functionName: 'balanceOf',
        args: [checksumAddress(input.address, 'address'), toUint256(input.id, 'id')],
      });
      return { balance, balanceString: balance.toString() };
    },
  );

  tokenReadRoute(
    app,
    `/${options.path}/tokenUri`,
    {
      tags: options.tags,
      summary: `Metadata URI of an id: <base URI>/<id>.json (${options.note})`,
      input: Erc1155TokenInput,
      response: Type.Object({ uri: Type.String() }),
    },
    async (input, application) => ({
      uri: await readTokenValue<string>(app.evm, {
        application,
        chainId: input.network,
        contractAddress: input.contractAddress,
        accepts: options.accepts,
        functionName: 'uri',
        args: [toUint256(input.id, 'id')],
      }),
    }),
  );
}

export async function erc1155Routes(app: FastifyInstance): Promise<void> {
  tokenDeployRoute(
    app,
    '/erc1155/deploy',
    {
      tags,
      summary: 'Deploy an ERC-1155 collection; answers once the node accepted the transaction',
      input: Erc1155DeployBody,
    },
    (body, base) => deployErc1155(app.evm, { ...body, ...base }),
  );

  tokenSendRoute(
    app,
    '/erc1155/mint',
    { tags, summary: 'Mint units of one id', input: Erc1155MintBody },
    (body, base) => mintErc1155(app.evm, { ...body, ...base }),
  );

  tokenSendRoute(
    app,
    '/erc1155/mintbatch',
    {
      tags,
      summary: 'Mint units of several ids in one transaction',
      input: Erc1155MintBatchBody,
      aliases: { amount: 'amounts' },
    },
    (body, base) => mintBatchErc1155(app.evm, { ...body, ...base }),
  );

  tokenSendRoute(
    app,
    '/erc1155/transfer',
    { tags, summary: 'Move units of one id from the signer', input: Erc1155TransferBody },
    (body, base) => transferErc1155(app.evm, { ...body, ...base }),
  );

  tokenSendRoute(
    app,
    '/erc1155/transferBatch',
    {
      tags,
      summary: 'Move units of several ids from the signer in one transaction',
      input: Erc1155TransferBatchBody,
    },
    (body, base) => transferBatchErc1155(app.evm, { ...body, ...base }),
  );

  erc1155ReadRoutes(app, {
    path: 'erc1155',
    tags,
    accepts: erc1155Kinds,
    note: 'ERC-1155 or POAP, as the spec’s POAP table uses the token URI path',
  });
}
