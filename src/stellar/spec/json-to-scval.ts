import { Address, type ScIntType, StrKey, XdrLargeInt, xdr } from '@stellar/stellar-sdk';
import { ChaingateError, quote } from '../../platform/errors/chaingate-error.ts';
import { type ContractSpec, text, typeName } from './contract-spec.ts';
import { sortedMap } from './scval-order.ts';

const integerRanges: Record<string, { min: bigint; max: bigint; scInt?: ScIntType }> = {
  scSpecTypeU32: { min: 0n, max: 2n ** 32n - 1n },
  scSpecTypeI32: { min: -(2n ** 31n), max: 2n ** 31n - 1n },
  scSpecTypeU64: { min: 0n, max: 2n ** 64n - 1n, scInt: 'u64' },
  scSpecTypeI64: { min: -(2n ** 63n), max: 2n ** 63n - 1n, scInt: 'i64' },
  scSpecTypeTimepoint: { min: 0n, max: 2n ** 64n - 1n, scInt: 'timepoint' as ScIntType },
  scSpecTypeDuration: { min: 0n, max: 2n ** 64n - 1n, scInt: 'duration' as ScIntType },
  scSpecTypeU128: { min: 0n, max: 2n ** 128n - 1n, scInt: 'u128' },
  scSpecTypeI128: { min: -(2n ** 127n), max: 2n ** 127n - 1n, scInt: 'i128' },
  scSpecTypeU256: { min: 0n, max: 2n ** 256n - 1n, scInt: 'u256' },
  scSpecTypeI256: { min: -(2n ** 255n), max: 2n ** 255n - 1n, scInt: 'i256' },
};

const HEX = /^(0x)?((?:[0-9a-fA-F]{2})*)$/;
const SYMBOL = /^[a-zA-Z0-9_]{0,32}$/;

/** Where a value sits in the request, e.g. `params[1] (amount: i128)` or `params[0] (p: Point).x`. */
export type ParamPath = string;

function mismatch(path: ParamPath, expected: string, value: unknown): ChaingateError {
  const got = value === undefined ? 'nothing' : quote(value);
  return new ChaingateError('CG_ERR_INVALID_PARAM', `${path}: expected ${expected}, got ${got}`, {
    context: { path },
  });
}

function integer(value: unknown, type: xdr.ScSpecTypeDef, path: ParamPath): bigint {
  const range = integerRanges[type.switch().name] as { min: bigint; max: bigint };
  const expected = `${typeName(type)} (an integer from ${range.min} to ${range.max}, as a JSON number or a decimal string)`;
  let parsed: bigint;
  if (typeof value === 'bigint') parsed = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) parsed = BigInt(value);
  else if (typeof value === 'string' && /^-?[0-9]{1,80}$/.test(value)) parsed = BigInt(value);
  else throw mismatch(path, expected, value);
  if (parsed < range.min || parsed > range.max) throw mismatch(path, expected, value);
  return parsed;
}

function hexBytes(value: unknown, path: ParamPath, length?: number): Buffer {
  const expected = length === undefined ? 'Bytes as hex' : `BytesN<${length}> as ${length * 2} hex digits`;
  const match = typeof value === 'string' ? HEX.exec(value) : null;
  if (!match) throw mismatch(path, expected, value);
  const bytes = Buffer.from(match[2] as string, 'hex');
  if (length !== undefined && bytes.length !== length) throw mismatch(path, expected, value);
  return bytes;
}

function address(value: unknown, path: ParamPath, muxed: boolean): xdr.ScVal {
  const ok =
    typeof value === 'string' &&
    (StrKey.isValidEd25519PublicKey(value) ||
      StrKey.isValidContract(value) ||
      (muxed && StrKey.isValidMed25519PublicKey(value)));
  if (!ok)
    throw mismatch(path, `${muxed ? 'MuxedAddress' : 'Address'} (a G… account or a C… contract)`, value);
  return Address.fromString(value).toScVal();
}

/** Values of a `Val` parameter, whose type the spec leaves open: the natural JSON mapping. */
function anyValue(value: unknown, path: ParamPath): xdr.ScVal {
  if (value === null || value === undefined) return xdr.ScVal.scvVoid();
  if (typeof value === 'boolean') return xdr.ScVal.scvBool(value);
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value)))
    return new XdrLargeInt('i128', BigInt(value)).toScVal();
  if (typeof value === 'string') return xdr.ScVal.scvString(value);
  if (Array.isArray(value))
    return xdr.ScVal.scvVec(value.map((item, index) => anyValue(item, `${path}[${index}]`)));
  if (typeof value === 'object') {
    return sortedMap(
      Object.entries(value as Record<string, unknown>).map(
        ([key, item]) =>
          new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol(key), val: anyValue(item, `${path}.${key}`) }),
      ),
    );
  }
  throw mismatch(path, 'a JSON value (Val)', value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapKey(key: string, type: xdr.ScSpecTypeDef, spec: ContractSpec, path: ParamPath): xdr.ScVal {
  // Object keys are strings: an integer key arrives as its decimal text, a bool as "true"/"false".
  const kind = type.switch().name;
  if (kind === 'scSpecTypeBool' && (key === 'true' || key === 'false'))
    return xdr.ScVal.scvBool(key === 'true');
  return jsonToScVal(key, type, spec, path);
}

function userType(value: unknown, type: xdr.ScSpecTypeDef, spec: ContractSpec, path: ParamPath): xdr.ScVal {
  const name = text(type.udt().name());
  const definition = spec.udt(name);
  if (!definition) throw mismatch(path, `${name} (a type the contract spec does not define)`, value);
  switch (definition.kind) {
    case 'struct': {
      const fields = definition.entry.fields();
      if (fields.every((field, index) => text(field.name()) === String(index))) {
        if (!Array.isArray(value) || value.length !== fields.length)
          throw mismatch(path, `${name} (an array of ${fields.length} values)`, value);
        return xdr.ScVal.scvVec(
          fields.map((field, index) => jsonToScVal(value[index], field.type(), spec, `${path}[${index}]`)),
        );
      }
      const names = fields.map((field) => text(field.name()));
      if (!isPlainObject(value)) throw mismatch(path, `${name} (an object with ${names.join(', ')})`, value);
      const unknown = Object.keys(value).find((key) => !names.includes(key));
      if (unknown !== undefined)
        throw mismatch(
          path,
          `${name} (an object with ${names.join(', ')}; no field ${quote(unknown)})`,
          value,
        );
      return sortedMap(
        fields.map((field) => {
          const fieldName = text(field.name());
          if (!(fieldName in value))
            throw mismatch(`${path}.${fieldName}`, typeName(field.type()), undefined);
          return new xdr.ScMapEntry({
            key: xdr.ScVal.scvSymbol(fieldName),
            val: jsonToScVal(value[fieldName], field.type(), spec, `${path}.${fieldName}`),
          });
        }),
      );
    }
    case 'union': {
      const cases = definition.entry.cases();
      const names = cases.map((item) =>
        text(
          item.switch().name === 'scSpecUdtUnionCaseVoidV0'
            ? item.voidCase().name()
            : item.tupleCase().name(),
        ),
      );
      const expected = `${name} (one of ${names.join(', ')}: "Case" or {"tag": "Case", "values": [...]})`;
      let tag: unknown;
      let values: unknown = [];
      if (typeof value === 'string') tag = value;
      else if (isPlainObject(value) && typeof value.tag === 'string') {
        tag = value.tag;
        values = value.values ?? [];
      } else if (Array.isArray(value) && typeof value[0] === 'string') {
        tag = value[0];
        values = value.slice(1);
      } else throw mismatch(path, expected, value);
      const index = names.indexOf(tag as string);
      const chosen = cases[index];
      if (!chosen) throw mismatch(path, expected, value);
      const symbol = xdr.ScVal.scvSymbol(tag as string);
      if (chosen.switch().name === 'scSpecUdtUnionCaseVoidV0') return xdr.ScVal.scvVec([symbol]);
      const types = chosen.tupleCase().type();
      if (!Array.isArray(values) || values.length !== types.length)
        throw mismatch(`${path}.values`, `${types.length} value(s) for ${name}::${tag as string}`, values);
      return xdr.ScVal.scvVec([
        symbol,
        ...types.map((item, position) =>
          jsonToScVal(values[position], item, spec, `${path}.values[${position}]`),
        ),
      ]);
    }
    case 'enum':
    case 'errorEnum': {
      const cases = definition.entry.cases();
      const chosen = cases.find((item) =>
        typeof value === 'string'
          ? text(item.name()) === value
          : typeof value === 'number' && item.value() === value,
      );
      if (!chosen) {
        const listed = cases.map((item) => `${text(item.name())} = ${item.value()}`).join(', ');
        throw mismatch(path, `${name} (one of ${listed}, by name or number)`, value);
      }
      return definition.kind === 'enum'
        ? xdr.ScVal.scvU32(chosen.value())
        : xdr.ScVal.scvError(xdr.ScError.sceContract(chosen.value()));
    }
  }
}

/** One JSON value as the ScVal of a spec type; a mismatch is a 400 naming `path` and the expected type. */
export function jsonToScVal(
  value: unknown,
  type: xdr.ScSpecTypeDef,
  spec: ContractSpec,
  path: ParamPath,
): xdr.ScVal {
  const kind = type.switch().name;
  const range = integerRanges[kind];
  if (range) {
    const parsed = integer(value, type, path);
    if (kind === 'scSpecTypeU32') return xdr.ScVal.scvU32(Number(parsed));
    if (kind === 'scSpecTypeI32') return xdr.ScVal.scvI32(Number(parsed));
    return new XdrLargeInt(range.scInt as ScIntType, parsed).toScVal();
  }
  switch (kind) {
    case 'scSpecTypeBool':
      if (typeof value !== 'boolean') throw mismatch(path, 'bool (true or false)', value);
      return xdr.ScVal.scvBool(value);
    case 'scSpecTypeVoid':
      if (value !== null && value !== undefined) throw mismatch(path, '() (null)', value);
      return xdr.ScVal.scvVoid();
    case 'scSpecTypeString':
      if (typeof value !== 'string') throw mismatch(path, 'String (a JSON string)', value);
      return xdr.ScVal.scvString(value);
    case 'scSpecTypeSymbol':
      if (typeof value !== 'string' || !SYMBOL.test(value))
        throw mismatch(path, 'Symbol (at most 32 characters a-z, A-Z, 0-9, _)', value);
      return xdr.ScVal.scvSymbol(value);
    case 'scSpecTypeBytes':
      return xdr.ScVal.scvBytes(hexBytes(value, path));
    case 'scSpecTypeBytesN':
      return xdr.ScVal.scvBytes(hexBytes(value, path, type.bytesN().n()));
    case 'scSpecTypeAddress':
      return address(value, path, false);
    case 'scSpecTypeMuxedAddress':
      return address(value, path, true);
    case 'scSpecTypeVal':
      return anyValue(value, path);
    case 'scSpecTypeOption':
      if (value === null || value === undefined) return xdr.ScVal.scvVoid();
      return jsonToScVal(value, type.option().valueType(), spec, path);
    case 'scSpecTypeVec': {
      if (!Array.isArray(value)) throw mismatch(path, `${typeName(type)} (a JSON array)`, value);
      const element = type.vec().elementType();
      return xdr.ScVal.scvVec(
        value.map((item, index) => jsonToScVal(item, element, spec, `${path}[${index}]`)),
      );
    }
    case 'scSpecTypeTuple': {
      const types = type.tuple().valueTypes();
      if (!Array.isArray(value) || value.length !== types.length)
        throw mismatch(path, `${typeName(type)} (an array of ${types.length} values)`, value);
      return xdr.ScVal.scvVec(
        types.map((item, index) => jsonToScVal(value[index], item, spec, `${path}[${index}]`)),
      );
    }
    case 'scSpecTypeMap': {
      const keyType = type.map().keyType();
      const valueType = type.map().valueType();
      const expected = `${typeName(type)} (an object, or an array of [key, value] pairs)`;
      let pairs: Array<[xdr.ScVal, xdr.ScVal]>;
      if (Array.isArray(value)) {
        pairs = value.map((pair, index) => {
          if (!Array.isArray(pair) || pair.length !== 2)
            throw mismatch(`${path}[${index}]`, '[key, value]', pair);
          return [
            jsonToScVal(pair[0], keyType, spec, `${path}[${index}][0]`),
            jsonToScVal(pair[1], valueType, spec, `${path}[${index}][1]`),
          ];
        });
      } else if (isPlainObject(value)) {
        pairs = Object.entries(value).map(([key, item]) => [
          mapKey(key, keyType, spec, `${path}.${key}`),
          jsonToScVal(item, valueType, spec, `${path}.${key}`),
        ]);
      } else throw mismatch(path, expected, value);
      return sortedMap(pairs.map(([key, val]) => new xdr.ScMapEntry({ key, val })));
    }
    case 'scSpecTypeUdt':
      return userType(value, type, spec, path);
    default:
      throw mismatch(path, `${typeName(type)}, which the service cannot build from JSON`, value);
  }
}

/**
 * A function's JSON `params`, in order, as ScVals: the count must match, and each value its type.
 * `field` names the request field in messages (`params`).
 */
export function paramsToScVals(
  spec: ContractSpec,
  fn: xdr.ScSpecFunctionV0,
  params: readonly unknown[],
  field = 'params',
): xdr.ScVal[] {
  const inputs = fn.inputs();
  if (params.length !== inputs.length) {
    const signature = inputs.map((input) => `${text(input.name())}: ${typeName(input.type())}`).join(', ');
    throw new ChaingateError(
      'CG_ERR_PARAM_COUNT',
      `${field}: ${text(fn.name())} takes ${inputs.length} parameter(s) (${signature}), got ${params.length}`,
    );
  }
  return inputs.map((input, index) =>
    jsonToScVal(
      params[index],
      input.type(),
      spec,
      `${field}[${index}] (${text(input.name())}: ${typeName(input.type())})`,
    ),
  );
}
