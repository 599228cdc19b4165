import type { AbiParameter, Hex } from 'viem';
import { checksummed } from './checksum.ts';

/**
 * ABI words of the simplest static types (address, bool, intN, uintN) encoded and decoded straight
 * from hex: the parameters of nearly every view and send (`balanceOf(address)`, `transfer(address,
 * uint256)`). viem validates and walks a cursor for each; here the values were already checked by
 * `coerceParams`, so a word is a padded hex string. Anything else (arrays, tuples, bytes, strings) goes
 * to viem. A unit test compares both ways with viem's results.
 */
const SIMPLE =
  /^(address|bool|u?int(8|16|24|32|40|48|56|64|72|80|88|96|104|112|120|128|136|144|152|160|168|176|184|192|200|208|216|224|232|240|248|256)?)$/;
const TWO_256 = 1n << 256n;
const ZERO_WORD = '0'.repeat(64);

/** Whether every parameter is a type handled here. */
export function allSimpleWords(parameters: readonly AbiParameter[]): boolean {
  for (const parameter of parameters) if (!SIMPLE.test(parameter.type)) return false;
  return true;
}

function wordOf(parameter: AbiParameter, value: unknown): string {
  if (parameter.type === 'address') return (value as string).slice(2).toLowerCase().padStart(64, '0');
  if (parameter.type === 'bool') return value ? `${ZERO_WORD.slice(1)}1` : ZERO_WORD;
  const integer = typeof value === 'bigint' ? value : BigInt(value as number);
  return (integer < 0n ? TWO_256 + integer : integer).toString(16).padStart(64, '0');
}

/** The encoded arguments (no 0x) of parameters that `allSimpleWords` accepted, values already checked. */
export function encodeSimpleWords(parameters: readonly AbiParameter[], values: readonly unknown[]): string {
  let out = '';
  for (let i = 0; i < parameters.length; i++) out += wordOf(parameters[i] as AbiParameter, values[i]);
  return out;
}

/**
 * The values of `data` for parameters that `allSimpleWords` accepted, as viem decodes them (numbers
 * up to 48 bits, bigints above, checksummed addresses), or undefined where viem must decide (too
 * little data, a bool word that is not 0 or 1), so that its errors stay the errors.
 */
export function decodeSimpleWords(parameters: readonly AbiParameter[], data: Hex): unknown[] | undefined {
  if (data.length < 2 + 64 * parameters.length || data.length % 2 !== 0) return undefined;
  const values: unknown[] = [];
  for (let i = 0; i < parameters.length; i++) {
    const { type } = parameters[i] as AbiParameter;
    const word = data.slice(2 + 64 * i, 66 + 64 * i);
    if (type === 'address') {
      const address = checksummed(`0x${word.slice(24)}`);
      if (!address) return undefined;
      values.push(address);
    } else if (type === 'bool') {
      if (word === ZERO_WORD) values.push(false);
      else if (word === `${ZERO_WORD.slice(1)}1`) values.push(true);
      else return undefined;
    } else {
      let integer = BigInt(`0x${word}`);
      // viem reads every int word as 256-bit two's complement, whatever N is.
      if (type.startsWith('int') && integer >= 1n << 255n) integer -= TWO_256;
      const bits = Number(type.replace(/^u?int/, '') || 256);
      if (bits > 48) values.push(integer);
      // viem refuses a small type's word beyond the safe range: its error stays the error.
      else if (integer > BigInt(Number.MAX_SAFE_INTEGER) || integer < BigInt(Number.MIN_SAFE_INTEGER))
        return undefined;
      else values.push(Number(integer));
    }
  }
  return values;
}
