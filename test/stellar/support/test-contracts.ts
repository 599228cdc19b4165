import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { xdr } from '@stellar/stellar-sdk';
import wabtInit from 'wabt';
import { customSection, envMetaSection, smallSymbol } from '../../soroban/support/wasm-builder.ts';

// Test contracts in WebAssembly text with hand-written contractspecv0 sections, so the Stellar API is
// checked against every spec type. Vals: U32Val is the value << 32 | 4; Void 2; an Error with a
// contract code is code << 32 | 3. Storage type args are raw 0/1/2 (temporary/persistent/instance).

const T = xdr.ScSpecTypeDef;
const sym = (s: string) => smallSymbol(s).toString();
const u32Val = (n: number) => ((BigInt(n) << 32n) | 4n).toString();
const contractError = (n: number) => ((BigInt(n) << 32n) | 3n).toString();

export const fixture = (name: string): Buffer =>
  readFileSync(join(import.meta.dirname, '..', 'fixtures', name));

function fn(
  name: string,
  inputs: Array<[string, xdr.ScSpecTypeDef]>,
  output?: xdr.ScSpecTypeDef,
): xdr.ScSpecEntry {
  return xdr.ScSpecEntry.scSpecEntryFunctionV0(
    new xdr.ScSpecFunctionV0({
      doc: '',
      name,
      inputs: inputs.map(([input, type]) => new xdr.ScSpecFunctionInputV0({ doc: '', name: input, type })),
      outputs: output ? [output] : [],
    }),
  );
}

const udt = (name: string) => T.scSpecTypeUdt(new xdr.ScSpecTypeUdt({ name }));

async function build(wat: string, entries: xdr.ScSpecEntry[]): Promise<Buffer> {
  const wabt = await wabtInit();
  const module = wabt.parseWat('contract.wat', wat);
  try {
    module.validate();
    const spec = customSection('contractspecv0', Buffer.concat(entries.map((entry) => entry.toXDR())));
    return Buffer.concat([Buffer.from(module.toBinary({}).buffer), spec, envMetaSection(22)]);
  } finally {
    module.destroy();
  }
}

/** Every spec type a parameter can have, each with a function that returns its argument. */
export const echoTypes: Record<string, xdr.ScSpecTypeDef> = {
  e_bool: T.scSpecTypeBool(),
  e_u32: T.scSpecTypeU32(),
  e_i32: T.scSpecTypeI32(),
  e_u64: T.scSpecTypeU64(),
  e_i64: T.scSpecTypeI64(),
  e_u128: T.scSpecTypeU128(),
  e_i128: T.scSpecTypeI128(),
  e_u256: T.scSpecTypeU256(),
  e_i256: T.scSpecTypeI256(),
  e_time: T.scSpecTypeTimepoint(),
  e_dur: T.scSpecTypeDuration(),
  e_sym: T.scSpecTypeSymbol(),
  e_str: T.scSpecTypeString(),
  e_bytes: T.scSpecTypeBytes(),
  e_bytes4: T.scSpecTypeBytesN(new xdr.ScSpecTypeBytesN({ n: 4 })),
  e_addr: T.scSpecTypeAddress(),
  e_vec: T.scSpecTypeVec(new xdr.ScSpecTypeVec({ elementType: T.scSpecTypeU32() })),
  e_map: T.scSpecTypeMap(
    new xdr.ScSpecTypeMap({ keyType: T.scSpecTypeSymbol(), valueType: T.scSpecTypeI128() }),
  ),
  e_opt: T.scSpecTypeOption(new xdr.ScSpecTypeOption({ valueType: T.scSpecTypeU32() })),
  e_tuple: T.scSpecTypeTuple(
    new xdr.ScSpecTypeTuple({ valueTypes: [T.scSpecTypeU32(), T.scSpecTypeBool()] }),
  ),
  e_point: udt('Point'),
  e_pair: udt('Pair'),
  e_shape: udt('Shape'),
  e_color: udt('Color'),
};

const typeEntries: xdr.ScSpecEntry[] = [
  xdr.ScSpecEntry.scSpecEntryUdtStructV0(
    new xdr.ScSpecUdtStructV0({
      doc: '',
      lib: '',
      name: 'Point',
      fields: [
        new xdr.ScSpecUdtStructFieldV0({ doc: '', name: 'x', type: T.scSpecTypeI32() }),
        new xdr.ScSpecUdtStructFieldV0({ doc: '', name: 'y', type: T.scSpecTypeI32() }),
      ],
    }),
  ),
  xdr.ScSpecEntry.scSpecEntryUdtStructV0(
    new xdr.ScSpecUdtStructV0({
      doc: '',
      lib: '',
      name: 'Pair',
      fields: [
        new xdr.ScSpecUdtStructFieldV0({ doc: '', name: '0', type: T.scSpecTypeU32() }),
        new xdr.ScSpecUdtStructFieldV0({ doc: '', name: '1', type: T.scSpecTypeSymbol() }),
      ],
    }),
  ),
  xdr.ScSpecEntry.scSpecEntryUdtUnionV0(
    new xdr.ScSpecUdtUnionV0({
      doc: '',
      lib: '',
      name: 'Shape',
      cases: [
        xdr.ScSpecUdtUnionCaseV0.scSpecUdtUnionCaseVoidV0(
          new xdr.ScSpecUdtUnionCaseVoidV0({ doc: '', name: 'Empty' }),
        ),
        xdr.ScSpecUdtUnionCaseV0.scSpecUdtUnionCaseTupleV0(
          new xdr.ScSpecUdtUnionCaseTupleV0({ doc: '', name: 'Circle', type: [T.scSpecTypeU32()] }),
        ),
      ],
    }),
  ),
  xdr.ScSpecEntry.scSpecEntryUdtEnumV0(
    new xdr.ScSpecUdtEnumV0({
      doc: '',
      lib: '',
      name: 'Color',
      cases: [
        new xdr.ScSpecUdtEnumCaseV0({ doc: '', name: 'Red', value: 1 }),
        new xdr.ScSpecUdtEnumCaseV0({ doc: '', name: 'Green', value: 2 }),
      ],
    }),
  ),
];

/** `e_<type>(v) -> v` for every type, and `pair(a: u32, b: i128) -> i128` returning its second argument. */
export function typesWasm(): Promise<Buffer> {
  const echoes = Object.keys(echoTypes)
    .map((name) => `(func (export "${name}") (param i64) (result i64) (local.get 0))`)
    .join('\n  ');
  const wat = `(module
  (memory (export "memory") 1)
  ${echoes}
  (func (export "pair") (param i64) (param i64) (result i64) (local.get 1))
)`;
  return build(wat, [
    ...typeEntries,
    ...Object.entries(echoTypes).map(([name, type]) => fn(name, [['v', type]], type)),
    fn(
      'pair',
      [
        ['a', T.scSpecTypeU32()],
        ['b', T.scSpecTypeI128()],
      ],
      T.scSpecTypeI128(),
    ),
  ]);
}

const errorEnum = xdr.ScSpecEntry.scSpecEntryUdtErrorEnumV0(
  new xdr.ScSpecUdtErrorEnumV0({
    doc: '',
    lib: '',
    name: 'Error',
    cases: [
      new xdr.ScSpecUdtErrorEnumCaseV0({ doc: '', name: 'NotAllowed', value: 1 }),
      new xdr.ScSpecUdtErrorEnumCaseV0({ doc: '', name: 'AlreadyUsed', value: 2 }),
    ],
  }),
);

/**
 * `emit(v: u32) -> u32` publishes ("ping", v) → v; `fail(code: u32)` returns contract error `code`;
 * `once()` fails with AlreadyUsed the second time; `guarded(user: Address, v: u32) -> u32` needs
 * `user`'s authorization; `count() -> u32` counts its calls in instance storage.
 */
export function behaviourWasm(): Promise<Buffer> {
  const wat = `(module
  (import "x" "1" (func $event (param i64 i64) (result i64)))
  (import "x" "5" (func $fail (param i64) (result i64)))
  (import "l" "_" (func $put (param i64 i64 i64) (result i64)))
  (import "l" "0" (func $has (param i64 i64) (result i64)))
  (import "l" "1" (func $get (param i64 i64) (result i64)))
  (import "v" "_" (func $vec_new (result i64)))
  (import "v" "6" (func $vec_push (param i64 i64) (result i64)))
  (import "a" "0" (func $require_auth (param i64) (result i64)))
  (memory (export "memory") 1)
  (func (export "emit") (param $v i64) (result i64)
    (drop (call $event
      (call $vec_push (call $vec_push (call $vec_new) (i64.const ${sym('ping')})) (local.get $v))
      (local.get $v)))
    (local.get $v))
  (func (export "fail") (param $code i64) (result i64)
    (drop (call $fail (i64.or (i64.shl (i64.shr_u (local.get $code) (i64.const 32)) (i64.const 32)) (i64.const 3))))
    (i64.const 2))
  (func (export "once") (result i64)
    (if (i64.eq (call $has (i64.const ${sym('used')}) (i64.const 1)) (i64.const 1))
      (then (drop (call $fail (i64.const ${contractError(2)})))))
    (drop (call $put (i64.const ${sym('used')}) (i64.const ${u32Val(1)}) (i64.const 1)))
    (i64.const 2))
  (func (export "guarded") (param $user i64) (param $v i64) (result i64)
    (drop (call $require_auth (local.get $user)))
    (local.get $v))
  (func (export "count") (result i64)
    (local $n i64)
    (local.set $n (i64.const ${u32Val(0)}))
    (if (i64.eq (call $has (i64.const ${sym('n')}) (i64.const 2)) (i64.const 1))
      (then (local.set $n (call $get (i64.const ${sym('n')}) (i64.const 2)))))
    (local.set $n (i64.add (local.get $n) (i64.const 4294967296)))
    (drop (call $put (i64.const ${sym('n')}) (local.get $n) (i64.const 2)))
    (local.get $n))
)`;
  return build(wat, [
    errorEnum,
    fn('emit', [['v', T.scSpecTypeU32()]], T.scSpecTypeU32()),
    fn('fail', [['code', T.scSpecTypeU32()]]),
    fn('once', []),
    fn(
      'guarded',
      [
        ['user', T.scSpecTypeAddress()],
        ['v', T.scSpecTypeU32()],
      ],
      T.scSpecTypeU32(),
    ),
    fn('count', [], T.scSpecTypeU32()),
  ]);
}

/** `__constructor(init: u32)` stores `init` in instance storage; `init() -> u32` reads it. */
export function constructorWasm(): Promise<Buffer> {
  const wat = `(module
  (import "l" "_" (func $put (param i64 i64 i64) (result i64)))
  (import "l" "1" (func $get (param i64 i64) (result i64)))
  (memory (export "memory") 1)
  (func (export "__constructor") (param $v i64) (result i64)
    (drop (call $put (i64.const ${sym('init')}) (local.get $v) (i64.const 2)))
    (i64.const 2))
  (func (export "init") (result i64) (call $get (i64.const ${sym('init')}) (i64.const 2)))
)`;
  return build(wat, [fn('__constructor', [['init', T.scSpecTypeU32()]]), fn('init', [], T.scSpecTypeU32())]);
}
