import { Keypair, StrKey, scValToBigInt, xdr } from '@stellar/stellar-sdk';
import { describe, expect, it } from 'vitest';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { ContractSpec, functionSignature } from './contract-spec.ts';
import { jsonToScVal, paramsToScVals } from './json-to-scval.ts';
import { scValToJson } from './scval-to-json.ts';

const T = xdr.ScSpecTypeDef;
const udt = (name: string) => T.scSpecTypeUdt(new xdr.ScSpecTypeUdt({ name }));

const spec = new ContractSpec([
  xdr.ScSpecEntry.scSpecEntryUdtStructV0(
    new xdr.ScSpecUdtStructV0({
      doc: '',
      lib: '',
      name: 'Point',
      fields: [
        new xdr.ScSpecUdtStructFieldV0({ doc: '', name: 'y', type: T.scSpecTypeI32() }),
        new xdr.ScSpecUdtStructFieldV0({ doc: '', name: 'x', type: T.scSpecTypeI32() }),
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
        new xdr.ScSpecUdtStructFieldV0({ doc: '', name: '1', type: T.scSpecTypeBool() }),
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
  xdr.ScSpecEntry.scSpecEntryFunctionV0(
    new xdr.ScSpecFunctionV0({
      doc: '',
      name: 'transfer',
      inputs: [
        new xdr.ScSpecFunctionInputV0({ doc: '', name: 'to', type: T.scSpecTypeAddress() }),
        new xdr.ScSpecFunctionInputV0({ doc: '', name: 'amount', type: T.scSpecTypeI128() }),
      ],
      outputs: [T.scSpecTypeBool()],
    }),
  ),
]);

const convert = (value: unknown, type: xdr.ScSpecTypeDef) => jsonToScVal(value, type, spec, 'params[0] (v)');
const roundTrip = (value: unknown, type: xdr.ScSpecTypeDef) => scValToJson(convert(value, type), type, spec);

function refusal(work: () => unknown): ChaingateError {
  try {
    work();
  } catch (error) {
    if (error instanceof ChaingateError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('jsonToScVal', () => {
  it('takes integers of every width from numbers and decimal strings, within range', () => {
    expect(convert(7, T.scSpecTypeU32()).u32()).toBe(7);
    expect(convert('-7', T.scSpecTypeI32()).i32()).toBe(-7);
    expect(scValToBigInt(convert('18446744073709551615', T.scSpecTypeU64()))).toBe(2n ** 64n - 1n);
    expect(scValToBigInt(convert(String(-(2n ** 127n)), T.scSpecTypeI128()))).toBe(-(2n ** 127n));
    expect(scValToBigInt(convert(String(2n ** 256n - 1n), T.scSpecTypeU256()))).toBe(2n ** 256n - 1n);
    expect(scValToBigInt(convert(2n ** 200n, T.scSpecTypeI256()))).toBe(2n ** 200n);
    expect(convert(5, T.scSpecTypeTimepoint()).switch().name).toBe('scvTimepoint');
    // Answered as bigints, which the serializer writes as number literals with every digit.
    expect(roundTrip('170141183460469231731687303715884105727', T.scSpecTypeI128())).toBe(
      170141183460469231731687303715884105727n,
    );
    expect(roundTrip(String(2n ** 53n), T.scSpecTypeI64())).toBe(2n ** 53n);
    expect(roundTrip(String(2n ** 53n - 1n), T.scSpecTypeI64())).toBe(2 ** 53 - 1);
    expect(roundTrip(12, T.scSpecTypeU128())).toBe(12);
  });

  it('refuses integers out of range, fractions, and numbers that lost digits, naming the parameter and type', () => {
    const outOfRange = refusal(() => convert('4294967296', T.scSpecTypeU32()));
    expect(outOfRange.code).toBe('CG_ERR_INVALID_PARAM');
    expect(outOfRange.message).toMatch(/^params\[0\] \(v\): expected u32 \(an integer from 0 to 4294967295/);
    expect(refusal(() => convert(-1, T.scSpecTypeU64())).message).toContain('expected u64');
    expect(refusal(() => convert(1.5, T.scSpecTypeI64())).message).toContain('got 1.5');
    expect(refusal(() => convert(2 ** 60, T.scSpecTypeU64())).message).toContain('expected u64');
    expect(refusal(() => convert('1e3', T.scSpecTypeI128())).message).toContain('expected i128');
  });

  it('takes G… and C… addresses, hex bytes, symbols and strings', () => {
    const account = Keypair.random().publicKey();
    const contract = StrKey.encodeContract(Buffer.alloc(32, 7));
    expect(roundTrip(account, T.scSpecTypeAddress())).toBe(account);
    expect(roundTrip(contract, T.scSpecTypeAddress())).toBe(contract);
    expect(refusal(() => convert('GABC', T.scSpecTypeAddress())).message).toContain(
      'Address (a G… account or a C… contract)',
    );
    expect(roundTrip('0xDEADbeef', T.scSpecTypeBytes())).toBe('deadbeef');
    expect(roundTrip('00ff', T.scSpecTypeBytesN(new xdr.ScSpecTypeBytesN({ n: 2 })))).toBe('00ff');
    expect(refusal(() => convert('abc', T.scSpecTypeBytes())).message).toContain('Bytes as hex');
    expect(
      refusal(() => convert('00', T.scSpecTypeBytesN(new xdr.ScSpecTypeBytesN({ n: 2 })))).message,
    ).toContain('BytesN<2> as 4 hex digits');
    expect(roundTrip('hello_1', T.scSpecTypeSymbol())).toBe('hello_1');
    expect(refusal(() => convert('no spaces', T.scSpecTypeSymbol())).message).toContain('Symbol');
    expect(roundTrip('any text ✓', T.scSpecTypeString())).toBe('any text ✓');
    expect(refusal(() => convert(3, T.scSpecTypeString())).message).toContain('String');
  });

  it('builds vectors, tuples, options and maps with keys in host order', () => {
    const vec = T.scSpecTypeVec(new xdr.ScSpecTypeVec({ elementType: T.scSpecTypeU32() }));
    expect(roundTrip([3, '4'], vec)).toEqual([3, 4]);
    expect(refusal(() => convert([1, 'x'], vec)).message).toMatch(/^params\[0\] \(v\)\[1\]: expected u32/);
    const tuple = T.scSpecTypeTuple(
      new xdr.ScSpecTypeTuple({ valueTypes: [T.scSpecTypeU32(), T.scSpecTypeBool()] }),
    );
    expect(roundTrip([1, true], tuple)).toEqual([1, true]);
    expect(refusal(() => convert([1], tuple)).message).toContain('(u32, bool) (an array of 2 values)');
    const option = T.scSpecTypeOption(new xdr.ScSpecTypeOption({ valueType: T.scSpecTypeU32() }));
    expect(roundTrip(null, option)).toBeNull();
    expect(roundTrip(9, option)).toBe(9);
    const map = T.scSpecTypeMap(
      new xdr.ScSpecTypeMap({ keyType: T.scSpecTypeSymbol(), valueType: T.scSpecTypeI128() }),
    );
    const built = convert({ zeta: 1, alpha: '2' }, map);
    expect((built.map() ?? []).map((entry) => entry.key().sym().toString())).toEqual(['alpha', 'zeta']);
    expect(
      roundTrip(
        [
          ['b', 2],
          ['a', 1],
        ],
        map,
      ),
    ).toEqual({ a: 1, b: 2 });
    const byNumber = T.scSpecTypeMap(
      new xdr.ScSpecTypeMap({ keyType: T.scSpecTypeU32(), valueType: T.scSpecTypeBool() }),
    );
    const numbered = convert({ '10': true, '9': false }, byNumber);
    expect((numbered.map() ?? []).map((entry) => entry.key().u32())).toEqual([9, 10]);
  });

  it('builds structs, tuple structs, unions and enums from the spec', () => {
    expect(roundTrip({ x: 1, y: -2 }, udt('Point'))).toEqual({ x: 1, y: -2 });
    const point = convert({ y: 5, x: 4 }, udt('Point'));
    expect((point.map() ?? []).map((entry) => entry.key().sym().toString())).toEqual(['x', 'y']);
    expect(refusal(() => convert({ x: 1 }, udt('Point'))).message).toBe(
      'params[0] (v).y: expected i32, got nothing',
    );
    expect(refusal(() => convert({ x: 1, y: 2, z: 3 }, udt('Point'))).message).toContain('no field z');
    expect(roundTrip([4, false], udt('Pair'))).toEqual([4, false]);
    expect(roundTrip('Empty', udt('Shape'))).toBe('Empty');
    expect(roundTrip({ tag: 'Circle', values: [3] }, udt('Shape'))).toEqual({ tag: 'Circle', values: [3] });
    expect(roundTrip(['Circle', 4], udt('Shape'))).toEqual({ tag: 'Circle', values: [4] });
    expect(refusal(() => convert('Square', udt('Shape'))).message).toContain('one of Empty, Circle');
    expect(convert('Green', udt('Color')).u32()).toBe(2);
    expect(convert(1, udt('Color')).u32()).toBe(1);
    expect(refusal(() => convert(3, udt('Color'))).message).toContain('Red = 1, Green = 2');
  });

  it('checks the parameter count and names each parameter with its type', () => {
    const transfer = spec.func('transfer') as xdr.ScSpecFunctionV0;
    expect(functionSignature(transfer)).toBe('transfer(to: Address, amount: i128) -> bool');
    const count = refusal(() => paramsToScVals(spec, transfer, [Keypair.random().publicKey()]));
    expect(count.code).toBe('CG_ERR_PARAM_COUNT');
    expect(count.message).toBe('params: transfer takes 2 parameter(s) (to: Address, amount: i128), got 1');
    const wrong = refusal(() => paramsToScVals(spec, transfer, [Keypair.random().publicKey(), 'ten']));
    expect(wrong.message).toMatch(/^params\[1\] \(amount: i128\): expected i128/);
    expect(paramsToScVals(spec, transfer, [Keypair.random().publicKey(), '10'])).toHaveLength(2);
  });
});
