import { Type } from 'typebox';
import { AddressField } from '../evm/request-fields.ts';
import {
  ContractAddressField,
  NetworkField,
  SenderField,
  sendFields,
  TokenUintField,
  tokenBody,
} from './token.schemas.ts';

export const Erc20DeployBody = tokenBody(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'token name' }),
    symbol: Type.String({ minLength: 1, maxLength: 50, description: 'token symbol' }),
    alias: Type.String({ minLength: 1, maxLength: 200, description: 'name of the contract in chaingate' }),
    initialSupply: TokenUintField(
      'initial supply in WHOLE tokens: the contract mints initialSupply × 10^18 smallest units (18 decimals) to the signer',
    ),
    network: NetworkField,
    sender: SenderField,
    ...sendFields,
  },
  'Deploys the standard ERC-20 contract (18 decimals) from the signer, who receives the whole supply.',
  '`initualSupply` (as the spec’s field table spells it) for `initialSupply`.',
);

export const Erc20TransferBody = tokenBody(
  {
    contractAddress: ContractAddressField,
    recipient: AddressField('receives the tokens'),
    amount: TokenUintField('amount in the token’s smallest unit'),
    network: NetworkField,
    sender: SenderField,
    ...sendFields,
  },
  'Transfers tokens the signer owns. A balance too small answers 400 with the decoded reason; nothing is signed.',
);

export const Erc20TransferFromBody = tokenBody(
  {
    contractAddress: ContractAddressField,
    sender: AddressField('owner of the tokens (any address that granted the signer an allowance)'),
    recipient: AddressField('receives the tokens'),
    amount: TokenUintField('amount in the token’s smallest unit'),
    network: NetworkField,
    spender: Type.Optional(
      AddressField(
        'optional: the application’s sender that signs and spends its allowance; default: the application’s default sender',
      ),
    ),
    ...sendFields,
  },
  'Moves the tokens of `sender` with the allowance it granted the signer. The allowance and the balance of `sender` ' +
    'are read on chain before signing: too small answers 400 naming which. When the signer is `sender` itself, a plain ' +
    '`transfer` is sent.',
);

export const Erc20IncreaseAllowanceBody = tokenBody(
  {
    contractAddress: ContractAddressField,
    spender: AddressField('may move addedValue more of the signer’s tokens'),
    addedValue: TokenUintField('smallest units added to the allowance'),
    network: NetworkField,
    sender: SenderField,
    ...sendFields,
  },
  'Raises the allowance the signer grants `spender`.',
);

export const Erc20DecreaseAllowanceBody = tokenBody(
  {
    contractAddress: ContractAddressField,
    spender: AddressField('whose allowance shrinks'),
    subtractedValue: TokenUintField('smallest units taken off the allowance; more than the allowance → 400'),
    network: NetworkField,
    sender: SenderField,
    ...sendFields,
  },
  'Lowers the allowance the signer grants `spender`.',
  '`substractedValue` (as the spec’s field table spells it) for `subtractedValue`.',
);

export const Erc20ContractInput = tokenBody(
  { contractAddress: ContractAddressField, network: NetworkField },
  'An ERC-20 contract.',
);

export const Erc20BalanceInput = tokenBody(
  {
    contractAddress: ContractAddressField,
    network: NetworkField,
    address: AddressField('holder whose balance is read'),
  },
  'A holder of an ERC-20 contract.',
);

export const Erc20AllowanceInput = tokenBody(
  {
    contractAddress: ContractAddressField,
    network: NetworkField,
    owner: AddressField('owner of the tokens'),
    spender: AddressField('account allowed to move them'),
  },
  'An allowance of an ERC-20 contract.',
);
