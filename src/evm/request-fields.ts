import { Type } from 'typebox';
import { ChaingateError } from '../platform/errors/chaingate-error.ts';
import type { SendOptions } from './services/send-transaction.ts';

/** An EVM address: 0x and 40 hex digits (checksum verified where it is used). */
export const AddressField = (description?: string) =>
  Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description: description ?? 'EVM address' });

/**
 * An unsigned integer that may exceed 2^53: a JSON number or a decimal string. Declared as a type
 * list (not anyOf) so query-string coercion never turns a long decimal string into a lossy float.
 */
export const UintField = (description: string) =>
  Type.Unsafe<number | string>({
    type: ['integer', 'string'],
    pattern: '^[0-9]{1,78}$',
    minimum: 0,
    description: `${description}. A JSON integer (every digit is kept, also beyond 2^53) or a decimal string; at most 2^256 − 1`,
  });

/** A gas limit: a JSON integer or a decimal string, far below any block's limit. */
export const GasLimitField = (description: string) =>
  Type.Unsafe<number | string>({
    type: ['integer', 'string'],
    pattern: '^[0-9]{1,15}$',
    minimum: 0,
    maximum: 999_999_999_999_999,
    description: `${description}. 0 or null means absent`,
  });

export const ChainIdField = Type.Integer({
  minimum: 1,
  maximum: 2_147_483_647,
  description: 'chain id (31337 is the embedded devnet)',
});

export const SpecIdField = (description = 'id of a stored contract spec') =>
  Type.Integer({ minimum: 1, maximum: 2_147_483_647, description });

export const MyReferenceField = Type.String({
  pattern: '^[A-Za-z0-9]{1,128}$',
  description: 'customer reference: alphanumeric, at most 128 characters; repeating one is allowed',
});

export const ParamsField = (description: string) =>
  Type.Optional(
    Type.Array(Type.Unknown(), {
      maxItems: 1000,
      description: `${description}. Integers as JSON numbers (all digits kept) or decimal strings, addresses checksummed or lower-case, bytes as 0x-hex, tuples as arrays or objects. Missing or null is []`,
    }),
  );

/** GWEI amounts may have decimals: a JSON number, or its decimal text (`"1.5"`, as `5.0` is kept). */
export const GweiField = (description: string) =>
  Type.Unsafe<number | string>({
    type: ['number', 'string'],
    pattern: '^[0-9]{1,12}(\\.[0-9]{1,9})?$',
    minimum: 0,
    maximum: 999_999_999_999,
    description: `${description}. 0 or null means absent`,
  });

export const TxHashField = Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: 'transaction hash' });

/** Field-name variants of existing clients, accepted everywhere (documented in each schema). */
export const commonAliases = { network: 'blockchainNetwork', contract: 'contractAddress', gas: 'gasLimit' };

export const aliasNote =
  'Accepted synonyms: `network` for `blockchainNetwork`, `contract` for `contractAddress`, `gas` for `gasLimit`.';

const UINT256_MAX = 2n ** 256n - 1n;

/** A validated integer field as a bigint; above 2^256 − 1 is a 400 naming the field. */
export function toBigInt(value: number | string | undefined, field = 'value'): bigint | undefined {
  if (value === undefined) return undefined;
  const result = BigInt(value);
  if (result > UINT256_MAX) {
    throw new ChaingateError('CG_ERR_VALIDATION', `${field} is above 2^256 - 1`, { context: { field } });
  }
  return result;
}

function gwei(value: number | string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}

/** The spec's sending fields of a request, as the sending service takes them. */
export function sendOptionsOf(body: {
  gasLimit?: number | string | undefined;
  useGasEstimation?: boolean | undefined;
  gasPrice?: number | string | undefined;
  priorityFee?: number | string | undefined;
  nonce?: number | undefined;
  myReference?: string | undefined;
}): SendOptions {
  return {
    gasLimit: toBigInt(body.gasLimit, 'gasLimit'),
    useGasEstimation: body.useGasEstimation,
    gasPriceGwei: gwei(body.gasPrice),
    priorityFeeGwei: gwei(body.priorityFee),
    nonce: body.nonce,
    myReference: body.myReference,
  };
}
