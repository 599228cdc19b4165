import { Address, Keypair, nativeToScVal, scValToNative, xdr } from '@stellar/stellar-sdk';
import { describe, expect, it } from 'vitest';
import { ObjectTable } from '../../src/stellar/sandbox/object-table.ts';
import { smallSymbol } from './support/wasm-builder.ts';

// Val layout facts from the Soroban environment (tags are part of the contract ABI).
const tag = (v: bigint) => Number(v & 0xffn);

describe('soroban sandbox: Val encoding', () => {
  it('encodes small values inline and large ones as objects', () => {
    const t = new ObjectTable();
    expect(t.fromScVal(xdr.ScVal.scvU32(7))).toBe((7n << 32n) | 4n);
    expect(t.fromScVal(xdr.ScVal.scvI32(-1))).toBe((0xffffffffn << 32n) | 5n);
    expect(t.fromScVal(xdr.ScVal.scvVoid())).toBe(2n);
    expect(t.fromScVal(xdr.ScVal.scvBool(true))).toBe(1n);
    expect(tag(t.fromScVal(nativeToScVal(2n ** 55n, { type: 'u64' })))).toBe(6); // U64Small
    expect(tag(t.fromScVal(nativeToScVal(2n ** 56n, { type: 'u64' })))).toBe(64); // U64Object
    expect(tag(t.fromScVal(nativeToScVal(-(2n ** 55n), { type: 'i64' })))).toBe(7); // I64Small
    expect(tag(t.fromScVal(nativeToScVal(-(2n ** 55n) - 1n, { type: 'i64' })))).toBe(65);
    expect(tag(t.fromScVal(nativeToScVal(-3n, { type: 'i128' })))).toBe(11);
    expect(tag(t.fromScVal(nativeToScVal(2n ** 100n, { type: 'u256' })))).toBe(70);
    expect(t.fromScVal(xdr.ScVal.scvSymbol('hello'))).toBe(smallSymbol('hello'));
    expect(tag(t.fromScVal(xdr.ScVal.scvSymbol('longer_than_nine')))).toBe(74);
  });

  it('round-trips ScVals through host objects', () => {
    const t = new ObjectTable();
    const values: xdr.ScVal[] = [
      nativeToScVal(-(2n ** 127n), { type: 'i128' }),
      nativeToScVal(2n ** 255n + 5n, { type: 'u256' }),
      nativeToScVal(-(2n ** 200n), { type: 'i256' }),
      nativeToScVal(Buffer.from('bytes')),
      nativeToScVal('a string', { type: 'string' }),
      nativeToScVal(Address.fromString(Keypair.random().publicKey())),
      xdr.ScVal.scvVec([xdr.ScVal.scvU32(1), xdr.ScVal.scvSymbol('x')]),
      xdr.ScVal.scvError(xdr.ScError.sceContract(42)),
    ];
    for (const v of values) expect(t.toScVal(t.fromScVal(v)).toXDR('base64')).toBe(v.toXDR('base64'));
  });

  it('sorts map keys the way the host orders values', () => {
    const t = new ObjectTable();
    const map = xdr.ScVal.scvMap([
      new xdr.ScMapEntry({ key: nativeToScVal(2n ** 60n, { type: 'u64' }), val: xdr.ScVal.scvU32(1) }),
      new xdr.ScMapEntry({ key: nativeToScVal(3n, { type: 'u64' }), val: xdr.ScVal.scvU32(2) }),
      new xdr.ScMapEntry({ key: xdr.ScVal.scvU32(9), val: xdr.ScVal.scvU32(3) }),
    ]);
    const back = t.toScVal(t.fromScVal(map));
    expect((back.map() ?? []).map((e) => scValToNative(e.key()))).toEqual([9, 3n, 2n ** 60n]);
    expect(() =>
      t.fromScVal(xdr.ScVal.scvMap([map.map()?.[0] as xdr.ScMapEntry, map.map()?.[0] as xdr.ScMapEntry])),
    ).toThrow(/duplicate/);
  });
});
