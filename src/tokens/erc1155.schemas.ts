import { Type } from 'typebox';
import { AddressField } from '../evm/request-fields.ts';
import { UriField } from './erc721.schemas.ts';
import {
  ContractAddressField,
  NetworkField,
  SenderField,
  sendFields,
  TokenIdField,
  TokenUintField,
  TokenUintListField,
  tokenBody,
} from './token.schemas.ts';

export const Erc1155DeployBody = tokenBody(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'collection name' }),
    symbol: Type.String({ minLength: 1, maxLength: 50, description: 'collection symbol' }),
    ipfsUri: UriField(
      'base URI of all asset metadata: uri(id) answers <ipfsUri>/<id>.json (a trailing slash is removed)',
    ),
    royaltyRecipient: AddressField('receives the royalty of every sale (ERC-2981)'),
    royaltyValue: Type.Integer({ minimum: 0, maximum: 100, description: 'whole percent of each sale' }),
    alias: Type.String({ minLength: 1, maxLength: 200, description: 'name of the contract in chaingate' }),
    network: NetworkField,
    sender: SenderField,
    ...sendFields,
  },
  'Deploys the standard ERC-1155 contract; the signer becomes its owner, the only account that can mint.',
);

const mintFields = {
  contractAddress: ContractAddressField,
  to: AddressField('receives the tokens'),
  network: NetworkField,
  sender: SenderField,
  ...sendFields,
};

export const Erc1155MintBody = tokenBody(
  { ...mintFields, id: TokenIdField(), amount: TokenUintField('units of the id') },
  'Mints units of one id; only the contract owner may (else 400 with the decoded reason).',
);

export const Erc1155BatchBody = (description: string, extraAliases = '') =>
  tokenBody(
    {
      ...mintFields,
      ids: TokenUintListField('token ids (JSON text in a query string)'),
      amounts: TokenUintListField('units per id, in the order of ids: same length as ids, else 400'),
    },
    description,
    extraAliases,
  );

export const Erc1155MintBatchBody = Erc1155BatchBody(
  'Mints units of several ids; only the contract owner may. Not served for a POAP contract (it has no mintBatch).',
  '`amount` (as some clients send it) for `amounts`.',
);

export const Erc1155TransferBody = tokenBody(
  { ...mintFields, id: TokenIdField(), amount: TokenUintField('units of the id') },
  'Moves units of one id the signer holds to `to` (safeTransferFrom); a balance too small → 400 with the reason.',
);

export const Erc1155TransferBatchBody = Erc1155BatchBody(
  'Moves units of several ids the signer holds to `to` (safeBatchTransferFrom).',
);

export const Erc1155BalanceInput = tokenBody(
  {
    contractAddress: ContractAddressField,
    network: NetworkField,
    address: AddressField('holder'),
    id: TokenIdField(),
  },
  'A holder of one id of an ERC-1155 (or POAP) contract.',
);

export const Erc1155TokenInput = tokenBody(
  { contractAddress: ContractAddressField, network: NetworkField, id: TokenIdField() },
  'One id of an ERC-1155 (or POAP) contract.',
);
