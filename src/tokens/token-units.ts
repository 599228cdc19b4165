import { maxUint256 } from 'viem';
import { ChaingateError, quote } from '../platform/errors/chaingate-error.ts';

/** A request integer as the schema lets it through: a JSON number, a decimal string or a bigint. */
export type UintInput = number | string | bigint;

function invalid(field: string, message: string): ChaingateError {
  return new ChaingateError('CG_ERR_VALIDATION', `${field} ${message}`, { context: { field } });
}

/** A uint256 argument: a non-negative integer below 2^256, else 400 naming the field. */
export function toUint256(value: UintInput, field: string): bigint {
  let parsed: bigint;
  if (typeof value === 'bigint') parsed = value;
  else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value))
      throw invalid(field, 'must be an integer (a decimal string above 2^53)');
    parsed = BigInt(value);
  } else {
    if (!/^[0-9]{1,78}$/.test(value))
      throw invalid(field, `must be a non-negative integer, got '${quote(value)}'`);
    parsed = BigInt(value);
  }
  if (parsed < 0n) throw invalid(field, 'must not be negative');
  if (parsed > maxUint256) throw invalid(field, 'must be below 2^256');
  return parsed;
}

/** A list of uint256 arguments, each checked under its own index (`ids[2]`). */
export function toUint256List(values: readonly UintInput[], field: string): bigint[] {
  return values.map((value, index) => toUint256(value, `${field}[${index}]`));
}

/** Whole tokens the contract scales by 10^decimals: the scaled value must still fit a uint256. */
export function toWholeTokens(value: UintInput, field: string, decimals = 18): bigint {
  const whole = toUint256(value, field);
  if (whole * 10n ** BigInt(decimals) > maxUint256) {
    throw invalid(field, `is in whole tokens and ×10^${decimals} must stay below 2^256`);
  }
  return whole;
}

/** `ids` and `amounts` pair up one to one; anything else is a 400 naming both. */
export function requireSameLength(ids: readonly unknown[], amounts: readonly unknown[]): void {
  if (ids.length !== amounts.length) {
    throw invalid(
      'amounts',
      `has ${amounts.length} item(s) but ids has ${ids.length}: give one amount per id, in the same order`,
    );
  }
}
