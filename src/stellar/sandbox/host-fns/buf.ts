import { xdr } from '@stellar/stellar-sdk';
import { ErrCode, ErrType, HostError } from '../errors.ts';
import type { Host } from '../host.ts';
import { isValidSymbol, u32Val, VOID } from '../val.ts';
import { readSlices } from './map-vec.ts';
import { arg, bytesOf, type HostFnTable, newBytes } from './types.ts';

function u32(h: Host, a: bigint[], i: number): number {
  return h.objects.u32Of(arg(a, i));
}

function byteAt(h: Host, v: bigint): number {
  const n = h.objects.u32Of(v);
  if (n > 255) throw new HostError(ErrType.Value, ErrCode.InvalidInput, `byte value ${n} out of range`);
  return n;
}

function checkIndex(i: number, len: number, inclusive = false): number {
  if (inclusive ? i > len : i >= len)
    throw new HostError(ErrType.Object, ErrCode.IndexBounds, `index ${i} out of bounds`);
  return i;
}

/** Copies part of a byte-like object into linear memory (bytes/string/symbol variants). */
function copyOut(h: Host, src: Uint8Array, a: bigint[]): bigint {
  const srcPos = u32(h, a, 1);
  const lmPos = u32(h, a, 2);
  const len = u32(h, a, 3);
  if (srcPos + len > src.length)
    throw new HostError(ErrType.Object, ErrCode.IndexBounds, 'source slice out of bounds');
  h.writeMemory(lmPos, src.subarray(srcPos, srcPos + len));
  return VOID;
}

function symbolBytes(h: Host, v: bigint): Uint8Array {
  return Buffer.from(h.objects.symbolOf(v));
}

function newSymbol(h: Host, bytes: Uint8Array): bigint {
  const s = Buffer.from(bytes).toString('latin1');
  if (!isValidSymbol(s)) throw new HostError(ErrType.Value, ErrCode.InvalidInput, `invalid symbol '${s}'`);
  return h.objects.add({ kind: 'symbol', value: s });
}

export const bufFns: HostFnTable = {
  'b._': (h, a) => newBytes(h, new Uint8Array(h.objects.toScVal(arg(a, 0)).toXDR())),
  'b.0': (h, a) => h.objects.fromScVal(xdr.ScVal.fromXDR(Buffer.from(bytesOf(h, arg(a, 0))))),
  'b.1': (h, a) => copyOut(h, bytesOf(h, arg(a, 0)), a),
  'b.2': (h, a) => {
    const b = bytesOf(h, arg(a, 0));
    const bPos = u32(h, a, 1);
    const src = h.readMemory(u32(h, a, 2), u32(h, a, 3));
    if (bPos > b.length)
      throw new HostError(ErrType.Object, ErrCode.IndexBounds, 'bytes position out of bounds');
    const out = new Uint8Array(Math.max(b.length, bPos + src.length));
    out.set(b);
    out.set(src, bPos);
    return newBytes(h, out);
  },
  'b.3': (h, a) => newBytes(h, h.readMemory(u32(h, a, 0), u32(h, a, 1))),
  'b.4': (h) => newBytes(h, new Uint8Array()),
  'b.5': (h, a) => {
    const b = new Uint8Array(bytesOf(h, arg(a, 0)));
    b[checkIndex(u32(h, a, 1), b.length)] = byteAt(h, arg(a, 2));
    return newBytes(h, b);
  },
  'b.6': (h, a) => {
    const b = bytesOf(h, arg(a, 0));
    return u32Val(b[checkIndex(u32(h, a, 1), b.length)] ?? 0);
  },
  'b.7': (h, a) => {
    const b = bytesOf(h, arg(a, 0));
    const i = checkIndex(u32(h, a, 1), b.length);
    return newBytes(h, Uint8Array.from([...b.subarray(0, i), ...b.subarray(i + 1)]));
  },
  'b.8': (h, a) => u32Val(bytesOf(h, arg(a, 0)).length),
  'b.9': (h, a) => newBytes(h, Uint8Array.from([...bytesOf(h, arg(a, 0)), byteAt(h, arg(a, 1))])),
  'b.a': (h, a) => {
    const b = bytesOf(h, arg(a, 0));
    if (b.length === 0) throw new HostError(ErrType.Object, ErrCode.IndexBounds, 'pop from empty bytes');
    return newBytes(h, b.slice(0, -1));
  },
  'b.b': (h, a) => u32Val(bytesOf(h, arg(a, 0))[checkIndex(0, bytesOf(h, arg(a, 0)).length)] ?? 0),
  'b.c': (h, a) => {
    const b = bytesOf(h, arg(a, 0));
    return u32Val(b[checkIndex(b.length - 1, b.length)] ?? 0);
  },
  'b.d': (h, a) => {
    const b = bytesOf(h, arg(a, 0));
    const i = checkIndex(u32(h, a, 1), b.length, true);
    return newBytes(h, Uint8Array.from([...b.subarray(0, i), byteAt(h, arg(a, 2)), ...b.subarray(i)]));
  },
  'b.e': (h, a) => newBytes(h, Uint8Array.from([...bytesOf(h, arg(a, 0)), ...bytesOf(h, arg(a, 1))])),
  'b.f': (h, a) => {
    const b = bytesOf(h, arg(a, 0));
    const start = checkIndex(u32(h, a, 1), b.length, true);
    const end = checkIndex(u32(h, a, 2), b.length, true);
    if (start > end) throw new HostError(ErrType.Object, ErrCode.IndexBounds, 'slice start after end');
    return newBytes(h, b.slice(start, end));
  },
  'b.g': (h, a) => copyOut(h, h.objects.getKind(arg(a, 0), 'string').value, a),
  'b.h': (h, a) => copyOut(h, symbolBytes(h, arg(a, 0)), a),
  'b.i': (h, a) => h.objects.add({ kind: 'string', value: h.readMemory(u32(h, a, 0), u32(h, a, 1)) }),
  'b.j': (h, a) => newSymbol(h, h.readMemory(u32(h, a, 0), u32(h, a, 1))),
  'b.k': (h, a) => u32Val(h.objects.getKind(arg(a, 0), 'string').value.length),
  'b.l': (h, a) => u32Val(symbolBytes(h, arg(a, 0)).length),
  'b.m': (h, a) => {
    const sym = h.objects.symbolOf(arg(a, 0));
    const names = readSlices(h, u32(h, a, 1), u32(h, a, 2));
    const i = names.indexOf(sym);
    if (i < 0) throw new HostError(ErrType.Value, ErrCode.MissingValue, `symbol ${sym} not found in slices`);
    return u32Val(i);
  },
  'b.n': (h, a) => newBytes(h, new Uint8Array(h.objects.getKind(arg(a, 0), 'string').value)),
  'b.o': (h, a) => h.objects.add({ kind: 'string', value: new Uint8Array(bytesOf(h, arg(a, 0))) }),
};
