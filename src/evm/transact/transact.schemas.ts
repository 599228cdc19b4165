import { Type } from 'typebox';
import {
  AddressField,
  aliasNote,
  ChainIdField,
  GasLimitField,
  GweiField,
  MyReferenceField,
  ParamsField,
  SpecIdField,
  UintField,
} from '../request-fields.ts';

const sendOptions = {
  gasLimit: Type.Optional(
    GasLimitField(
      'maximum gas; when absent the platform estimates it (+20 % headroom). Below the estimate → 400',
    ),
  ),
  useGasEstimation: Type.Optional(
    Type.Boolean({
      description: 'default true; false sends without estimating (3,000,000 gas unless gasLimit is given)',
    }),
  ),
  gasPrice: Type.Optional(
    GweiField('max fee per gas in GWEI; from the chain when absent. With nonce: accelerate/replace'),
  ),
  priorityFee: Type.Optional(GweiField('priority fee (tip) in GWEI')),
  nonce: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description:
        'explicit nonce: the nonce of a pending transaction of this sender replaces it (raise gasPrice), or the next nonce',
    }),
  ),
  myReference: Type.Optional(MyReferenceField),
};

export const DeployBody = Type.Object(
  {
    contractSpecsId: SpecIdField(),
    sender: AddressField('sender; one of the application’s senders; becomes the contract owner'),
    blockchainNetwork: ChainIdField,
    alias: Type.Optional(Type.String({ maxLength: 200 })),
    params: ParamsField('constructor parameters, in order'),
    ...sendOptions,
  },
  { description: `Deploy a stored contract spec. ${aliasNote}` },
);

export const MutableBody = Type.Object(
  {
    contractAddress: AddressField('contract to call'),
    contractSpecsId: Type.Optional(SpecIdField('ABI for a contract not deployed through chaingate')),
    sender: AddressField('one of the application’s senders'),
    blockchainNetwork: ChainIdField,
    value: Type.Optional(UintField('native token sent with the call, in wei')),
    method: Type.String({
      minLength: 1,
      maxLength: 1000,
      description: 'function name as in the ABI, or its full signature for an overload',
    }),
    params: ParamsField('function parameters, in order'),
    ...sendOptions,
  },
  { description: `Send a state-changing call. ${aliasNote}` },
);

export const ViewInput = Type.Object(
  {
    contractAddress: AddressField('contract to query'),
    contractSpecsId: Type.Optional(SpecIdField()),
    blockchainNetwork: ChainIdField,
    method: Type.String({ minLength: 1, maxLength: 1000 }),
    params: ParamsField('function parameters, in order (empty array for none); JSON text in a query string'),
    sender: Type.Optional(AddressField('optional msg.sender of the call')),
  },
  { description: `A read-only call. ${aliasNote}` },
);

export const DeployEstimateInput = Type.Object({
  contractSpecsId: SpecIdField(),
  sender: AddressField('any address'),
  blockchainNetwork: ChainIdField,
  params: ParamsField('constructor parameters, in order'),
});

export const MutableEstimateInput = Type.Object({
  contractAddress: AddressField(),
  contractSpecsId: Type.Optional(SpecIdField()),
  sender: AddressField('any address'),
  blockchainNetwork: ChainIdField,
  method: Type.String({ minLength: 1, maxLength: 1000 }),
  params: ParamsField('function parameters, in order'),
  value: Type.Optional(UintField('wei')),
});

export const EstimatedGas = Type.Object({ estimatedGas: Type.Integer() });
export const DeployAnswer = Type.Object({
  contractAddress: Type.String(),
  txHash: Type.String(),
  nonce: Type.Integer(),
});
export const SendAnswer = Type.Object({ txHash: Type.String(), nonce: Type.Integer() });
