import { Type } from 'typebox';
import type { SendOptions } from './services/send-transaction.ts';

/** An EVM address: 0x and 40 hex digits (checksum verified where it is used). */
export const AddressField = (description?: string) =>
  Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description: description ?? 'EVM address' });

/**
 * An unsigned integer that may exceed 2^53: a JSON number or a decimal string. Declared as a type
 * list (not anyOf) so query-string coercion never turns a long decimal string into a lossy float.
 */
export const UintField = (description: string) =>
  Type.Unsafe<number | string>({ type: ['integer', 'string'], pattern: '^[0-9]+$', minimum: 0, description });

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
  Type.Array(Type.Unknown(), {
    description: `${description}. Integers as JSON numbers or decimal strings, addresses checksummed or lower-case, bytes as 0x-hex, tuples as arrays or objects`,
  });

export const GweiField = (description: string) => Type.Number({ minimum: 0, description });

export const TxHashField = Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: 'transaction hash' });

/** Field-name variants of existing clients, accepted everywhere (documented in each schema). */
export const commonAliases = { network: 'blockchainNetwork', contract: 'contractAddress', gas: 'gasLimit' };

export const aliasNote =
  'Accepted synonyms: `network` for `blockchainNetwork`, `contract` for `contractAddress`, `gas` for `gasLimit`.';

export function toBigInt(value: number | string | undefined): bigint | undefined {
  return value === undefined ? undefined : BigInt(value);
}

/** The spec's sending fields of a request, as the sending service takes them. */
export function sendOptionsOf(body: {
  gasLimit?: number | string | undefined;
  useGasEstimation?: boolean | undefined;
  gasPrice?: number | undefined;
  priorityFee?: number | undefined;
  nonce?: number | undefined;
  myReference?: string | undefined;
}): SendOptions {
  return {
    gasLimit: toBigInt(body.gasLimit),
    useGasEstimation: body.useGasEstimation,
    gasPriceGwei: body.gasPrice,
    priorityFeeGwei: body.priorityFee,
    nonce: body.nonce,
    myReference: body.myReference,
  };
}
