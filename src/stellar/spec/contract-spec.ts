import type { xdr } from '@stellar/stellar-sdk';
import { decodeSpecEntries } from './wasm-module.ts';

export type UdtDefinition =
  | { kind: 'struct'; entry: xdr.ScSpecUdtStructV0 }
  | { kind: 'union'; entry: xdr.ScSpecUdtUnionV0 }
  | { kind: 'enum'; entry: xdr.ScSpecUdtEnumV0 }
  | { kind: 'errorEnum'; entry: xdr.ScSpecUdtErrorEnumV0 };

export const text = (value: string | Buffer): string => value.toString();

/** A contract's contractspecv0 entries, indexed: functions by name, user-defined types by name. */
export class ContractSpec {
  readonly #functions = new Map<string, xdr.ScSpecFunctionV0>();
  readonly #types = new Map<string, UdtDefinition>();
  readonly #errors = new Map<number, string>();

  constructor(readonly entries: readonly xdr.ScSpecEntry[]) {
    for (const entry of entries) {
      switch (entry.switch().name) {
        case 'scSpecEntryFunctionV0':
          this.#functions.set(text(entry.functionV0().name()), entry.functionV0());
          break;
        case 'scSpecEntryUdtStructV0':
          this.#types.set(text(entry.udtStructV0().name()), { kind: 'struct', entry: entry.udtStructV0() });
          break;
        case 'scSpecEntryUdtUnionV0':
          this.#types.set(text(entry.udtUnionV0().name()), { kind: 'union', entry: entry.udtUnionV0() });
          break;
        case 'scSpecEntryUdtEnumV0':
          this.#types.set(text(entry.udtEnumV0().name()), { kind: 'enum', entry: entry.udtEnumV0() });
          break;
        case 'scSpecEntryUdtErrorEnumV0': {
          const errorEnum = entry.udtErrorEnumV0();
          this.#types.set(text(errorEnum.name()), { kind: 'errorEnum', entry: errorEnum });
          for (const item of errorEnum.cases()) this.#errors.set(item.value(), text(item.name()));
          break;
        }
        default:
          break;
      }
    }
  }

  /** From the base64 contractspecv0 payload stored with a saved contract. */
  static fromXdr(specXdr: string): ContractSpec {
    return new ContractSpec(decodeSpecEntries(Buffer.from(specXdr, 'base64')));
  }

  /** Functions in the order the spec lists them (`__constructor` included). */
  functions(): xdr.ScSpecFunctionV0[] {
    return [...this.#functions.values()];
  }

  func(name: string): xdr.ScSpecFunctionV0 | undefined {
    return this.#functions.get(name);
  }

  udt(name: string): UdtDefinition | undefined {
    return this.#types.get(name);
  }

  /** The name a contract error code has in any of the spec's error enums. */
  errorName(code: number): string | undefined {
    return this.#errors.get(code);
  }
}

/** The type as a Rust programmer writes it: `u32`, `Vec<Address>`, `Option<i128>`, `BytesN<32>`, `(u32, bool)`. */
export function typeName(type: xdr.ScSpecTypeDef): string {
  switch (type.switch().name) {
    case 'scSpecTypeVal':
      return 'Val';
    case 'scSpecTypeBool':
      return 'bool';
    case 'scSpecTypeVoid':
      return '()';
    case 'scSpecTypeError':
      return 'Error';
    case 'scSpecTypeU32':
      return 'u32';
    case 'scSpecTypeI32':
      return 'i32';
    case 'scSpecTypeU64':
      return 'u64';
    case 'scSpecTypeI64':
      return 'i64';
    case 'scSpecTypeTimepoint':
      return 'Timepoint';
    case 'scSpecTypeDuration':
      return 'Duration';
    case 'scSpecTypeU128':
      return 'u128';
    case 'scSpecTypeI128':
      return 'i128';
    case 'scSpecTypeU256':
      return 'U256';
    case 'scSpecTypeI256':
      return 'I256';
    case 'scSpecTypeBytes':
      return 'Bytes';
    case 'scSpecTypeString':
      return 'String';
    case 'scSpecTypeSymbol':
      return 'Symbol';
    case 'scSpecTypeAddress':
      return 'Address';
    case 'scSpecTypeMuxedAddress':
      return 'MuxedAddress';
    case 'scSpecTypeOption':
      return `Option<${typeName(type.option().valueType())}>`;
    case 'scSpecTypeResult':
      return `Result<${typeName(type.result().okType())}, ${typeName(type.result().errorType())}>`;
    case 'scSpecTypeVec':
      return `Vec<${typeName(type.vec().elementType())}>`;
    case 'scSpecTypeMap':
      return `Map<${typeName(type.map().keyType())}, ${typeName(type.map().valueType())}>`;
    case 'scSpecTypeTuple':
      return `(${type
        .tuple()
        .valueTypes()
        .map((item) => typeName(item))
        .join(', ')})`;
    case 'scSpecTypeBytesN':
      return `BytesN<${type.bytesN().n()}>`;
    case 'scSpecTypeUdt':
      return text(type.udt().name());
  }
}

/** `name(arg: type, …) -> return type`, as the methods endpoint lists them. */
export function functionSignature(fn: xdr.ScSpecFunctionV0): string {
  const inputs = fn
    .inputs()
    .map((input) => `${text(input.name())}: ${typeName(input.type())}`)
    .join(', ');
  const output = fn.outputs()[0];
  return `${text(fn.name())}(${inputs})${output ? ` -> ${typeName(output)}` : ''}`;
}
