import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { checksumAddress } from '../evm/services/encode-contract-call.ts';
import {
  Erc721BalanceInput,
  Erc721DeployBody,
  Erc721MintBody,
  Erc721TokenInput,
  Erc721TransferBody,
} from './erc721.schemas.ts';
import { deployErc721, mintErc721, transferErc721 } from './erc721.service.ts';
import { UintAnswer } from './token.schemas.ts';
import { readTokenValue } from './token-reads.ts';
import { tokenDeployRoute, tokenReadRoute, tokenSendRoute } from './token-route.ts';
import { toUint256 } from './token-units.ts';

const tags = ['tokens: ERC-721'];
const accepts = ['ERC721'] as const;

export async function erc721Routes(app: FastifyInstance): Promise<void> {
  tokenDeployRoute(
    app,
    '/erc721/deploy',
    {
      tags,
      summary: 'Deploy an ERC-721 collection; answers once the node accepted the transaction',
      input: Erc721DeployBody,
    },
    (body, base) => deployErc721(app.evm, { ...body, ...base }),
  );

  tokenSendRoute(
    app,
    '/erc721/mint',
    {
      tags,
      summary: 'Mint an NFT with its metadata URI and an ERC-2981 royalty for the recipient',
      input: Erc721MintBody,
      codes: ['CG_ERR_TOKEN_EXISTS', 'CG_ERR_DUPLICATE_IPFS_HASH'],
    },
    (body, base) => mintErc721(app.evm, { ...body, ...base }),
  );

  tokenSendRoute(
    app,
    '/erc721/transfer',
    {
      tags,
      summary: 'Move an NFT from `from` to `to`',
      input: Erc721TransferBody,
      codes: ['CG_ERR_NONEXISTENT_TOKEN', 'CG_ERR_NOT_TOKEN_OWNER'],
    },
    (body, base) => transferErc721(app.evm, { ...body, ...base }),
  );

  tokenReadRoute(
    app,
    '/erc721/balanceOf',
    {
      tags,
      summary: 'How many NFTs of the contract `address` owns',
      description:
        'Also the grouped balance page’s ERC-721 lookup: `contract` is accepted for `contractAddress` there.',
      input: Erc721BalanceInput,
      response: UintAnswer('balance', 'number of NFTs owned'),
    },
    async (input, application) => {
      const balance = await readTokenValue<bigint>(app.evm, {
        application,
        chainId: input.network,
        contractAddress: input.contractAddress,
        accepts,
        functionName: 'balanceOf',
        args: [checksumAddress(input.address, 'address')],
      });
      return { balance, balanceString: balance.toString() };
    },
  );

  for (const [path, functionName, field, description] of [
    [
      'tokenUri',
      'tokenURI',
      'uri',
      'The spec declares `uri` an int; it is the URL (a string) of the metadata.',
    ],
    ['ownerOf', 'ownerOf', 'owner', 'The spec declares `owner` an int; it is a checksummed address.'],
  ] as const) {
    tokenReadRoute(
      app,
      `/erc721/${path}`,
      {
        tags,
        summary: field === 'uri' ? 'Metadata URI of an NFT' : 'Owner of an NFT',
        description,
        input: Erc721TokenInput,
        response: Type.Object({ [field]: Type.String() }),
        codes: ['CG_ERR_NONEXISTENT_TOKEN'],
      },
      async (input, application) => ({
        [field]: await readTokenValue<string>(app.evm, {
          application,
          chainId: input.network,
          contractAddress: input.contractAddress,
          accepts,
          functionName,
          args: [toUint256(input.id, 'id')],
          tokenIdField: 'id',
        }),
      }),
    );
  }
}
