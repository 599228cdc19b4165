import { Type } from 'typebox';
import { ContractAddressField, NetworkField, TokenIdField, tokenBody } from './token.schemas.ts';

export const pagingFields = {
  page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'page number, from 1 (default 1)' }),
  ),
  pageSize: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 500, description: 'rows per page (default 100)' }),
  ),
};

export const ContractsInput = tokenBody(
  { network: Type.Optional(NetworkField), ...pagingFields },
  'Token contracts of the calling application; `network` narrows to one network.',
);

export const HoldersInput = (withId: boolean) =>
  tokenBody(
    {
      contractAddress: ContractAddressField,
      network: NetworkField,
      ...(withId ? { id: Type.Optional(TokenIdField('only the holders of this id')) } : {}),
      ...pagingFields,
    },
    'A token contract the calling application deployed (any other → 404).',
  );

export const ContractsAnswer = Type.Object({
  page: Type.Integer(),
  pageSize: Type.Integer(),
  total: Type.Integer({ description: 'contracts in all (every page)' }),
  contracts: Type.Array(
    Type.Object({
      alias: Type.Union([Type.String(), Type.Null()]),
      contractAddress: Type.String(),
      network: Type.Integer(),
      standard: Type.String({ enum: ['ERC20', 'ERC721', 'ERC1155', 'POAP'] }),
      deployStatus: Type.String({
        description: 'status of the deploy transaction: inserted, processing, confirmed, evmError or error',
      }),
      txHash: Type.Union([Type.String(), Type.Null()], { description: 'deploy transaction' }),
      createdAt: Type.String({ format: 'date-time' }),
    }),
  ),
});

export const HoldersAnswer = (withId: boolean) =>
  Type.Object({
    contractAddress: Type.String(),
    network: Type.Integer(),
    standard: Type.String({ enum: ['ERC20', 'ERC721', 'ERC1155', 'POAP'] }),
    scannedBlock: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'balances are as of this block (the confirmed head when upToDate); null while the deployment is not mined',
    }),
    upToDate: Type.Boolean({
      description: 'false when the index is still catching up (an old contract): read again to continue',
    }),
    page: Type.Integer(),
    pageSize: Type.Integer(),
    total: Type.Integer({ description: withId ? 'holder/id rows in all' : 'holders in all' }),
    holders: Type.Array(
      Type.Object({
        address: Type.String(),
        ...(withId ? { id: Type.Integer({ description: 'token id' }) } : {}),
        balance: Type.Integer({
          description: withId ? 'units of the id' : 'smallest units (ERC-20) or NFTs owned (ERC-721)',
        }),
        balanceString: Type.String({ description: 'the balance as a decimal string' }),
      }),
    ),
  });
