import { Type } from 'typebox';
import { AddressField } from '../evm/request-fields.ts';
import {
  ContractAddressField,
  NetworkField,
  SenderField,
  sendFields,
  TokenIdField,
  tokenBody,
} from './token.schemas.ts';

export const UriField = (description: string) => Type.String({ minLength: 1, maxLength: 2048, description });

export const Erc721DeployBody = tokenBody(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'collection name' }),
    symbol: Type.String({ minLength: 1, maxLength: 50, description: 'collection symbol' }),
    alias: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'name of the contract in chaingate' }),
    ),
    network: NetworkField,
    sender: SenderField,
    ...sendFields,
  },
  'Deploys the standard ERC-721 contract; the signer becomes its owner, the only account that can mint.',
);

export const Erc721MintBody = tokenBody(
  {
    contractAddress: ContractAddressField,
    recipientAddress: AddressField('receives the NFT and the royalties of its sales'),
    tokenId: TokenIdField('id of the new NFT; an id already minted → 400'),
    ipfsUri: UriField('metadata URI of the NFT (what tokenURI answers)'),
    ipfsHash: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'content hash of the metadata; one per contract: a hash already minted or being minted → 400 before signing, and the contract refuses it too',
    }),
    royaltyPercentage: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 100,
        description: 'whole percent of each sale owed to recipientAddress (ERC-2981 royaltyInfo); default 0',
      }),
    ),
    network: NetworkField,
    sender: SenderField,
    ...sendFields,
  },
  'Mints an NFT; the signer must be the contract owner (else 400 with the decoded reason).',
);

export const Erc721TransferBody = tokenBody(
  {
    contractAddress: ContractAddressField,
    id: TokenIdField('id of the NFT'),
    from: AddressField('current owner of the NFT'),
    to: AddressField('destination address (a contract must accept ERC-721 tokens)'),
    network: NetworkField,
    sender: SenderField,
    ...sendFields,
  },
  'Moves an NFT with safeTransferFrom. Checked on chain before signing: `from` owns it, and the signer is `from` or ' +
    'approved for the token or for all of its tokens; else 400 saying which.',
);

export const Erc721BalanceInput = tokenBody(
  { contractAddress: ContractAddressField, network: NetworkField, address: AddressField('holder') },
  'A holder of an ERC-721 contract.',
);

export const Erc721TokenInput = tokenBody(
  { contractAddress: ContractAddressField, network: NetworkField, id: TokenIdField('id of the NFT') },
  'An NFT of an ERC-721 contract.',
);
