import { Address, scValToBigInt, type xdr } from '@stellar/stellar-sdk';
import type { JsonValue } from '../../platform/json/json-value.ts';
import { type ContractSpec, text } from './contract-spec.ts';

const minSafe = BigInt(Number.MIN_SAFE_INTEGER);
const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

/** Integers within ±(2^53 − 1) as numbers, larger ones as bigints (number literals on the wire). */
function integerJson(value: bigint): number | bigint {
  return value >= minSafe && value <= maxSafe ? Number(value) : value;
}

/** A Soroban error as JSON: `{ type, code }`, with the contract's own name for a contract error. */
export function scErrorJson(error: xdr.ScError, spec?: ContractSpec): { [key: string]: JsonValue } {
  const type = error.switch().name.replace(/^sce/, '').toLowerCase();
  if (error.switch().name === 'sceContract') {
    const code = error.contractCode();
    const name = spec?.errorName(code);
    return { type, code, ...(name ? { name } : {}) };
  }
  return { type, code: error.code().name.replace(/^scec/, '') };
}

/** Any ScVal as JSON, without a type to guide it. */
function untyped(value: xdr.ScVal, spec?: ContractSpec): JsonValue {
  switch (value.switch().name) {
    case 'scvBool':
      return value.b();
    case 'scvVoid':
      return null;
    case 'scvError':
      return { error: scErrorJson(value.error(), spec) };
    case 'scvU32':
      return value.u32();
    case 'scvI32':
      return value.i32();
    case 'scvU64':
    case 'scvI64':
    case 'scvU128':
    case 'scvI128':
    case 'scvU256':
    case 'scvI256':
    case 'scvTimepoint':
    case 'scvDuration':
      return integerJson(scValToBigInt(value));
    case 'scvBytes':
      return Buffer.from(value.bytes()).toString('hex');
    case 'scvString':
      return Buffer.from(value.str()).toString('utf8');
    case 'scvSymbol':
      return Buffer.from(value.sym()).toString('utf8');
    case 'scvVec':
      return (value.vec() ?? []).map((item) => untyped(item, spec));
    case 'scvMap': {
      const entries = value.map() ?? [];
      const textKeys = entries.every((entry) =>
        ['scvSymbol', 'scvString'].includes(entry.key().switch().name),
      );
      if (textKeys) {
        const out: { [key: string]: JsonValue } = {};
        for (const entry of entries) out[untyped(entry.key()) as string] = untyped(entry.val(), spec);
        return out;
      }
      return entries.map((entry) => [untyped(entry.key(), spec), untyped(entry.val(), spec)]);
    }
    case 'scvAddress':
      return Address.fromScAddress(value.address()).toString();
    case 'scvContractInstance':
      return { contractInstance: true };
    case 'scvLedgerKeyContractInstance':
      return 'LedgerKeyContractInstance';
    case 'scvLedgerKeyNonce':
      return { nonce: value.nonceKey().nonce().toString() };
  }
}

/**
 * A ScVal as JSON, guided by its spec type when one is known: structs become objects with their field
 * names, unions `"Case"` or `{ tag, values }`, options `null` or the value, errors `{ type, code, name }`.
 * A value that does not fit its type is rendered without it.
 */
export function scValToJson(value: xdr.ScVal, type?: xdr.ScSpecTypeDef, spec?: ContractSpec): JsonValue {
  if (!type) return untyped(value, spec);
  const kind = type.switch().name;
  const valueKind = value.switch().name;
  if (kind === 'scSpecTypeOption')
    return valueKind === 'scvVoid' ? null : scValToJson(value, type.option().valueType(), spec);
  if (kind === 'scSpecTypeResult') {
    if (valueKind === 'scvError') return { error: scErrorJson(value.error(), spec) };
    return scValToJson(value, type.result().okType(), spec);
  }
  if (kind === 'scSpecTypeVec' && valueKind === 'scvVec')
    return (value.vec() ?? []).map((item) => scValToJson(item, type.vec().elementType(), spec));
  if (kind === 'scSpecTypeTuple' && valueKind === 'scvVec') {
    const types = type.tuple().valueTypes();
    return (value.vec() ?? []).map((item, index) => scValToJson(item, types[index], spec));
  }
  if (kind === 'scSpecTypeMap' && valueKind === 'scvMap') {
    const keyType = type.map().keyType();
    const valueType = type.map().valueType();
    const entries = value.map() ?? [];
    const keys = entries.map((entry) => scValToJson(entry.key(), keyType, spec));
    if (keys.every((key) => typeof key === 'string')) {
      const out: { [key: string]: JsonValue } = {};
      entries.forEach((entry, index) => {
        out[keys[index] as string] = scValToJson(entry.val(), valueType, spec);
      });
      return out;
    }
    return entries.map((entry, index) => [
      keys[index] as JsonValue,
      scValToJson(entry.val(), valueType, spec),
    ]);
  }
  if (kind === 'scSpecTypeUdt' && spec) {
    const definition = spec.udt(text(type.udt().name()));
    if (definition?.kind === 'struct') {
      const fields = definition.entry.fields();
      if (valueKind === 'scvVec')
        return (value.vec() ?? []).map((item, index) => scValToJson(item, fields[index]?.type(), spec));
      if (valueKind === 'scvMap') {
        const out: { [key: string]: JsonValue } = {};
        for (const entry of value.map() ?? []) {
          const name = untyped(entry.key()) as string;
          out[name] = scValToJson(
            entry.val(),
            fields.find((field) => text(field.name()) === name)?.type(),
            spec,
          );
        }
        return out;
      }
    }
    if (definition?.kind === 'union' && valueKind === 'scvVec') {
      const [tag, ...values] = value.vec() ?? [];
      const name = tag?.switch().name === 'scvSymbol' ? Buffer.from(tag.sym()).toString('utf8') : undefined;
      const chosen = definition.entry
        .cases()
        .find(
          (item) =>
            item.switch().name === 'scSpecUdtUnionCaseTupleV0' && text(item.tupleCase().name()) === name,
        );
      if (name !== undefined && values.length === 0) return name;
      if (name !== undefined && chosen) {
        const types = chosen.tupleCase().type();
        return { tag: name, values: values.map((item, index) => scValToJson(item, types[index], spec)) };
      }
    }
  }
  return untyped(value, spec);
}
