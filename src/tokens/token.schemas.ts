import { type TSchema, Type } from 'typebox';
import { AddressField, ChainIdField, GweiField, MyReferenceField } from '../evm/request-fields.ts';
import type { SendOptions } from '../evm/services/send-transaction.ts';
import type { ErrorCode } from '../platform/errors/codes.ts';
import { toUint256, type UintInput } from './token-units.ts';

/** An unsigned 256-bit integer: a JSON number or a decimal string of at most 78 digits. */
export const TokenUintField = (description: string) =>
  Type.Unsafe<UintInput>({
    type: ['integer', 'string'],
    pattern: '^[0-9]{1,78}$',
    minimum: 0,
    description: `${description}. A JSON number or a decimal string (for values above 2^53), below 2^256`,
  });

export const TokenIdField = (description = 'token id') => TokenUintField(description);

export const TokenUintListField = (description: string) =>
  Type.Array(TokenUintField('one item'), { minItems: 1, maxItems: 500, description });

export const NetworkField = ChainIdField;
export const ContractAddressField = AddressField('address of the token contract');

/** Field-name variants of existing clients, accepted on every token endpoint. */
export const tokenAliases: Record<string, string> = {
  blockchainNetwork: 'network',
  contract: 'contractAddress',
  gas: 'gasLimit',
};

export const tokenAliasNote =
  'Accepted synonyms: `blockchainNetwork` for `network`, `contract` for `contractAddress`, `gas` for `gasLimit`.';

export const SenderField = Type.Optional(
  AddressField(
    'optional: one of the application’s senders to sign with (403 for any other address); default: the application’s default sender',
  ),
);

/** The sending options of every state-changing token endpoint (absent = the platform decides). */
export const sendFields = {
  gasLimit: Type.Optional(
    TokenUintField('maximum gas; estimated (+20 %) when absent or 0. Below the estimate → 400'),
  ),
  gasPrice: Type.Optional(GweiField('max fee per gas in GWEI; from the chain when absent or 0')),
  priorityFee: Type.Optional(GweiField('priority fee (tip) in GWEI; from the chain when absent or 0')),
  nonce: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description:
        'explicit nonce: a pending transaction of the signer with this nonce is replaced (raise gasPrice), or the next nonce',
    }),
  ),
  myReference: Type.Optional(MyReferenceField),
};

type SendFields = {
  gasLimit?: UintInput | undefined;
  gasPrice?: number | undefined;
  priorityFee?: number | undefined;
  nonce?: number | undefined;
  myReference?: string | undefined;
};

/** Every sending option, present (possibly undefined), so it overrides the body's fields of the same name. */
export type TokenSendOptions = {
  gasLimit: bigint | undefined;
  useGasEstimation: boolean | undefined;
  gasPriceGwei: number | undefined;
  priorityFeeGwei: number | undefined;
  nonce: number | undefined;
  myReference: string | undefined;
};

/** The sending options of a body; `0` for gasLimit, gasPrice and priorityFee means absent (Go clients). */
export function tokenSendOptions(body: SendFields): TokenSendOptions & SendOptions {
  const gasLimit = body.gasLimit === undefined ? undefined : toUint256(body.gasLimit, 'gasLimit');
  return {
    gasLimit: gasLimit === 0n ? undefined : gasLimit,
    useGasEstimation: undefined,
    gasPriceGwei: body.gasPrice === 0 ? undefined : body.gasPrice,
    priorityFeeGwei: body.priorityFee === 0 ? undefined : body.priorityFee,
    nonce: body.nonce,
    myReference: body.myReference,
  };
}

/** A body schema with the synonyms it accepts said in its description. */
export function tokenBody<Properties extends Record<string, TSchema>>(
  properties: Properties,
  description: string,
  extraAliases = '',
) {
  return Type.Object(properties, {
    description: `${description} ${tokenAliasNote}${extraAliases ? ` ${extraAliases}` : ''}`,
  });
}

export const SendAnswer = Type.Object({
  txHash: Type.String({ description: 'hash of the signed transaction; follow it with the status endpoints' }),
  nonce: Type.Integer({ description: 'nonce of the signing account' }),
});

export const DeployAnswer = Type.Object({
  contractAddress: Type.String({ description: 'address the contract is deployed at (known before mining)' }),
  txHash: Type.String(),
});

/** A uint256 answer: the JSON integer with every digit, and the same as a decimal string for JavaScript. */
export const UintAnswer = (name: string, description: string) =>
  Type.Object({
    [name]: Type.Integer({ description: `${description}; a JSON integer with every digit` }),
    [`${name}String`]: Type.String({
      description: `the same value as a decimal string (exact in JavaScript)`,
    }),
  });

/** Codes of every token endpoint that opens a contract. */
export const contractCodes: ErrorCode[] = [
  'CG_ERR_UNKNOWN_NETWORK',
  'CG_ERR_PLAN_FORBIDS',
  'CG_ERR_NOT_A_CONTRACT',
  'CG_ERR_WRONG_TOKEN_STANDARD',
  'ERROR_NODE_UNREACHABLE',
];

export const readCodes: ErrorCode[] = [
  ...contractCodes,
  'CG_ERR_CONTRACT_PENDING',
  'ERROR_EXECUTION_REVERTED',
];

/** What the sending path can answer. */
export const sendCodes: ErrorCode[] = [
  'ERROR_EXECUTION_REVERTED',
  'ERROR_INSUFICIENT_FUNDS',
  'CG_ERR_UNKNOWN_SENDER',
  'ERROR_GAS_LIMIT_TOO_LOW',
  'ERROR_FEE_ABOVE_CEILING',
  'CG_ERR_BAD_NONCE',
  'ERROR_NONCE_CONFLICT',
  'ERROR_REPLACEMENT_UNDERPRICED',
  'ERROR_REJECTED_BY_NODE',
  'ERROR_NONCE_TOO_HIGH',
  'ERROR_NODE_UNREACHABLE',
  'CG_ERR_IDEMPOTENCY_KEY_REUSED',
  'CG_ERR_IDEMPOTENCY_KEY_IN_USE',
];

export const deployCodes: ErrorCode[] = [
  'CG_ERR_UNKNOWN_NETWORK',
  'CG_ERR_PLAN_FORBIDS',
  'CG_ERR_INVALID_PARAM',
  ...sendCodes,
];
