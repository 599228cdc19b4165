import { type AbiParameter, type Address, getAddress } from 'viem';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { canonicalType } from './canonical-type.ts';
import { checksummed } from './checksum.ts';

const code = 'CG_ERR_INVALID_PARAM';

function show(value: unknown): string {
  let text: string;
  try {
    text =
      JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ??
      String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function describe(param: AbiParameter): string {
  const type = canonicalType(param);
  return param.name ? `${param.name}: ${type}` : type;
}

function invalid(path: string, param: AbiParameter, expected: string, value: unknown): ChaingateError {
  return new ChaingateError(code, `${path} (${describe(param)}): expected ${expected}, got ${show(value)}`);
}

function coerceAddress(path: string, param: AbiParameter, value: unknown): Address {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) {
    throw invalid(path, param, 'an address as 0x followed by 40 hex digits', value);
  }
  // Mixed case is an EIP-55 checksum claim; a wrong one usually means a mistyped address.
  const address = checksummed(value);
  if (!address) {
    throw invalid(path, param, `a correctly checksummed address (${getAddress(value.toLowerCase())})`, value);
  }
  return address;
}

function parseInteger(value: unknown, signed: boolean): bigint | undefined {
  if (typeof value === 'bigint') return value;
  // Only safe integers: a larger JSON number has already lost precision in JSON.parse.
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : undefined;
  if (typeof value !== 'string') return undefined;
  if (/^0x[0-9a-fA-F]+$/.test(value)) return BigInt(value);
  if ((signed ? /^-?\d+$/ : /^\d+$/).test(value)) return BigInt(value);
  return undefined;
}

function coerceInteger(
  path: string,
  param: AbiParameter,
  value: unknown,
  signed: boolean,
  bits: number,
): bigint {
  const parsed = parseInteger(value, signed);
  if (parsed === undefined) {
    const sign = signed ? 'optionally negative ' : '';
    throw invalid(
      path,
      param,
      `an integer as a JSON number or ${sign}decimal string or 0x-hex string`,
      value,
    );
  }
  const min = signed ? -(2n ** BigInt(bits - 1)) : 0n;
  const max = signed ? 2n ** BigInt(bits - 1) - 1n : 2n ** BigInt(bits) - 1n;
  if (parsed < min || parsed > max) throw invalid(path, param, `an integer from ${min} to ${max}`, value);
  return parsed;
}

function coerceBool(path: string, param: AbiParameter, value: unknown): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw invalid(path, param, 'true or false', value);
}

function coerceBytes(
  path: string,
  param: AbiParameter,
  value: unknown,
  size: number | undefined,
): `0x${string}` {
  const ok =
    typeof value === 'string' &&
    /^0x([0-9a-fA-F]{2})*$/.test(value) &&
    (size === undefined || value.length === 2 + size * 2);
  if (!ok) {
    const what =
      size === undefined
        ? 'hex bytes as 0x with an even number of hex digits'
        : `exactly ${size} bytes as 0x-hex (${size * 2} hex digits)`;
    throw invalid(path, param, what, value);
  }
  return value as `0x${string}`;
}

function coerceArray(
  path: string,
  param: AbiParameter,
  value: unknown,
  inner: string,
  length: string,
): unknown[] {
  const fixed = length === '' ? undefined : Number(length);
  if (!Array.isArray(value)) {
    throw invalid(
      path,
      param,
      fixed === undefined ? 'a JSON array' : `a JSON array of ${fixed} items`,
      value,
    );
  }
  if (fixed !== undefined && value.length !== fixed) {
    throw new ChaingateError(
      code,
      `${path} (${describe(param)}): expected ${fixed} items, got ${value.length}`,
    );
  }
  const element = { ...param, type: inner, name: '' } as AbiParameter;
  return value.map((item, index) => coerceValue(`${path}[${index}]`, element, item));
}

function coerceTuple(path: string, param: AbiParameter, value: unknown): unknown[] {
  const components = 'components' in param ? param.components : [];
  if (Array.isArray(value)) {
    if (value.length !== components.length) {
      throw new ChaingateError(
        code,
        `${path} (${describe(param)}): expected ${components.length} tuple items, got ${value.length}`,
      );
    }
    return components.map((component, index) =>
      coerceValue(childPath(path, component, index), component, value[index]),
    );
  }
  if (value === null || typeof value !== 'object')
    throw invalid(path, param, 'a JSON array or object', value);
  if (components.some((component) => !component.name)) {
    throw invalid(path, param, 'a JSON array (the tuple has unnamed components)', value);
  }
  const record = value as Record<string, unknown>;
  const names = components.map((component) => component.name as string);
  const missing = names.filter((name) => !Object.hasOwn(record, name));
  const extra = Object.keys(record).filter((key) => !names.includes(key));
  if (missing.length > 0 || extra.length > 0) {
    const parts = [
      missing.length > 0 ? `missing key(s) ${missing.join(', ')}` : '',
      extra.length > 0 ? `unexpected key(s) ${extra.join(', ')}` : '',
    ].filter(Boolean);
    throw new ChaingateError(code, `${path} (${describe(param)}): ${parts.join('; ')}`);
  }
  return components.map((component, index) =>
    coerceValue(childPath(path, component, index), component, record[component.name as string]),
  );
}

function childPath(path: string, component: AbiParameter, index: number): string {
  return component.name ? `${path}.${component.name}` : `${path}[${index}]`;
}

function coerceValue(path: string, param: AbiParameter, value: unknown): unknown {
  const type = param.type;
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array) return coerceArray(path, param, value, array[1] as string, array[2] as string);
  if (type === 'tuple') return coerceTuple(path, param, value);
  if (type === 'address') return coerceAddress(path, param, value);
  if (type === 'bool') return coerceBool(path, param, value);
  if (type === 'string') {
    if (typeof value !== 'string') throw invalid(path, param, 'a string', value);
    return value;
  }
  if (type === 'bytes') return coerceBytes(path, param, value, undefined);
  const bytesN = /^bytes(\d+)$/.exec(type);
  if (bytesN) return coerceBytes(path, param, value, Number(bytesN[1]));
  const integer = /^(u?)int(\d*)$/.exec(type);
  if (integer) return coerceInteger(path, param, value, integer[1] === '', Number(integer[2] || 256));
  throw new ChaingateError(code, `${path} (${describe(param)}): type ${type} is not supported`);
}

/**
 * Turns JSON params into the values viem's encoders take (bigints, checksummed addresses, positional
 * tuples), naming the exact path of the first wrong value. `subject` words the count error, e.g.
 * `method transfer` or `constructor`.
 */
export function coerceParams(
  inputs: readonly AbiParameter[],
  params: unknown[],
  label = 'params',
  subject = 'method',
): unknown[] {
  if (!Array.isArray(params)) {
    throw new ChaingateError('CG_ERR_PARAM_COUNT', `${label}: expected a JSON array, got ${show(params)}`);
  }
  if (params.length !== inputs.length) {
    const list = inputs.length === 0 ? 'none' : inputs.map(describe).join(', ');
    throw new ChaingateError(
      'CG_ERR_PARAM_COUNT',
      `${subject} takes ${inputs.length} ${label} (${list}), got ${params.length}`,
    );
  }
  return inputs.map((input, index) => coerceValue(`${label}[${index}]`, input, params[index]));
}
