import { Type } from 'typebox';
import { AddressField } from '../evm/request-fields.ts';
import { UriField } from './erc721.schemas.ts';
import {
  ContractAddressField,
  NetworkField,
  SenderField,
  sendFields,
  TokenIdField,
  tokenBody,
} from './token.schemas.ts';
import type { UintInput } from './token-units.ts';

export const PoapDeployBody = tokenBody(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'event name' }),
    amount: Type.Unsafe<UintInput | UintInput[]>({
      type: ['integer', 'string', 'array'],
      pattern: '^[0-9]{1,78}$',
      minimum: 0,
      items: { type: ['integer', 'string'], pattern: '^[0-9]{1,78}$', minimum: 0 },
      minItems: 1,
      maxItems: 500,
      description:
        'badges minted to the signer at deployment: a number mints that many of id 1; a list mints amount[i] of id i + 1',
    }),
    ipfsUri: UriField('base URI of the badge metadata: uri(id) answers <ipfsUri>/<id>.json'),
    alias: Type.String({ minLength: 1, maxLength: 200, description: 'name of the contract in chaingate' }),
    network: NetworkField,
    sender: SenderField,
    ...sendFields,
  },
  'Deploys the standard POAP contract; the signer gets the minter role, which every badge move needs.',
);

export const PoapTransferBody = tokenBody(
  {
    contractAddress: ContractAddressField,
    to: AddressField('receives one badge'),
    id: TokenIdField('badge id'),
    network: NetworkField,
    sender: SenderField,
    ...sendFields,
  },
  'Hands one badge of `id` from the signer to `to`. The signer must hold the minter role: checked before signing ' +
    '(400) and enforced by the contract.',
);
