import { ErrCode, ErrType, HostError } from '../errors.ts';
import type { Host } from '../host.ts';
import { u32Val, VOID } from '../val.ts';
import { arg, type HostFnTable } from './types.ts';

function vecOf(h: Host, v: bigint): bigint[] {
  return h.objects.getKind(v, 'vec').value;
}

function newVec(h: Host, value: bigint[]): bigint {
  h.charge(value.length * 10);
  return h.objects.add({ kind: 'vec', value });
}

function index(h: Host, v: bigint, len: number, inclusive = false): number {
  const i = h.objects.u32Of(v);
  if (inclusive ? i > len : i >= len)
    throw new HostError(ErrType.Object, ErrCode.IndexBounds, `index ${i} out of bounds`);
  return i;
}

function mapOf(h: Host, v: bigint) {
  return h.objects.getKind(v, 'map');
}

function findKey(h: Host, keys: bigint[], k: bigint): { found: boolean; at: number } {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const c = h.objects.compare(keys[mid] ?? VOID, k);
    if (c === 0) return { found: true, at: mid };
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return { found: false, at: lo };
}

/** Reads `len` (ptr, len) u32 pairs from memory: the symbol-slice arrays soroban-sdk passes. */
function readSlices(h: Host, pos: number, len: number): string[] {
  const raw = h.readMemory(pos, len * 8);
  const view = new DataView(raw.buffer);
  return Array.from({ length: len }, (_, i) => {
    const p = view.getUint32(i * 8, true);
    const l = view.getUint32(i * 8 + 4, true);
    return Buffer.from(h.readMemory(p, l)).toString('utf8');
  });
}

export { findKey, readSlices };

export const mapVecFns: HostFnTable = {
  'm._': (h) => h.objects.add({ kind: 'map', keys: [], vals: [] }),
  'm.0': (h, a) => {
    const m = mapOf(h, arg(a, 0));
    const keys = [...m.keys];
    const vals = [...m.vals];
    const { found, at } = findKey(h, keys, arg(a, 1));
    if (found) vals[at] = arg(a, 2);
    else {
      keys.splice(at, 0, arg(a, 1));
      vals.splice(at, 0, arg(a, 2));
    }
    return h.objects.add({ kind: 'map', keys, vals });
  },
  'm.1': (h, a) => {
    const m = mapOf(h, arg(a, 0));
    const { found, at } = findKey(h, m.keys, arg(a, 1));
    if (!found) throw new HostError(ErrType.Object, ErrCode.MissingValue, 'map key not found');
    return m.vals[at] ?? VOID;
  },
  'm.2': (h, a) => {
    const m = mapOf(h, arg(a, 0));
    const { found, at } = findKey(h, m.keys, arg(a, 1));
    if (!found) throw new HostError(ErrType.Object, ErrCode.MissingValue, 'map key not found');
    const keys = m.keys.filter((_, i) => i !== at);
    const vals = m.vals.filter((_, i) => i !== at);
    return h.objects.add({ kind: 'map', keys, vals });
  },
  'm.3': (h, a) => u32Val(mapOf(h, arg(a, 0)).keys.length),
  'm.4': (h, a) => (findKey(h, mapOf(h, arg(a, 0)).keys, arg(a, 1)).found ? 1n : 0n),
  'm.5': (h, a) => {
    const m = mapOf(h, arg(a, 0));
    return m.keys[index(h, arg(a, 1), m.keys.length)] ?? VOID;
  },
  'm.6': (h, a) => {
    const m = mapOf(h, arg(a, 0));
    return m.vals[index(h, arg(a, 1), m.vals.length)] ?? VOID;
  },
  'm.7': (h, a) => newVec(h, [...mapOf(h, arg(a, 0)).keys]),
  'm.8': (h, a) => newVec(h, [...mapOf(h, arg(a, 0)).vals]),
  // The linear-memory map functions take keys as symbol slices that must be strictly sorted (as
  // soroban-sdk's contracttype structs lay them out); the host rejects anything else.
  'm.9': (h, a) => {
    const len = h.objects.u32Of(arg(a, 2));
    const keys = readSlices(h, h.objects.u32Of(arg(a, 0)), len).map((n) => h.objects.symbolVal(n));
    const vals = h.readVals(h.objects.u32Of(arg(a, 1)), len);
    for (let i = 1; i < keys.length; i++) {
      if (h.objects.compare(keys[i - 1] ?? VOID, keys[i] ?? VOID) >= 0) {
        throw new HostError(
          ErrType.Object,
          ErrCode.InvalidInput,
          'map keys must be unique and in sorted order',
        );
      }
    }
    return h.objects.add({ kind: 'map', keys, vals });
  },
  'm.a': (h, a) => {
    const m = mapOf(h, arg(a, 0));
    const len = h.objects.u32Of(arg(a, 3));
    const names = readSlices(h, h.objects.u32Of(arg(a, 1)), len);
    if (names.length !== m.keys.length) {
      throw new HostError(ErrType.Object, ErrCode.UnexpectedSize, 'map size differs from requested keys');
    }
    names.forEach((n, i) => {
      if (h.objects.compare(h.objects.symbolVal(n), m.keys[i] ?? VOID) !== 0) {
        throw new HostError(ErrType.Object, ErrCode.InvalidInput, `map key #${i} is not ${n}`);
      }
    });
    h.writeVals(h.objects.u32Of(arg(a, 2)), m.vals);
    return VOID;
  },
  'v._': (h) => newVec(h, []),
  'v.0': (h, a) => {
    const v = [...vecOf(h, arg(a, 0))];
    v[index(h, arg(a, 1), v.length)] = arg(a, 2);
    return newVec(h, v);
  },
  'v.1': (h, a) => {
    const v = vecOf(h, arg(a, 0));
    return v[index(h, arg(a, 1), v.length)] ?? VOID;
  },
  'v.2': (h, a) => {
    const v = [...vecOf(h, arg(a, 0))];
    v.splice(index(h, arg(a, 1), v.length), 1);
    return newVec(h, v);
  },
  'v.3': (h, a) => u32Val(vecOf(h, arg(a, 0)).length),
  'v.4': (h, a) => newVec(h, [arg(a, 1), ...vecOf(h, arg(a, 0))]),
  'v.5': (h, a) => {
    const v = vecOf(h, arg(a, 0));
    if (v.length === 0) throw new HostError(ErrType.Object, ErrCode.IndexBounds, 'pop from empty vec');
    return newVec(h, v.slice(1));
  },
  'v.6': (h, a) => newVec(h, [...vecOf(h, arg(a, 0)), arg(a, 1)]),
  'v.7': (h, a) => {
    const v = vecOf(h, arg(a, 0));
    if (v.length === 0) throw new HostError(ErrType.Object, ErrCode.IndexBounds, 'pop from empty vec');
    return newVec(h, v.slice(0, -1));
  },
  'v.8': (h, a) => {
    const v = vecOf(h, arg(a, 0));
    if (v.length === 0) throw new HostError(ErrType.Object, ErrCode.IndexBounds, 'front of empty vec');
    return v[0] ?? VOID;
  },
  'v.9': (h, a) => {
    const v = vecOf(h, arg(a, 0));
    if (v.length === 0) throw new HostError(ErrType.Object, ErrCode.IndexBounds, 'back of empty vec');
    return v[v.length - 1] ?? VOID;
  },
  'v.a': (h, a) => {
    const v = [...vecOf(h, arg(a, 0))];
    v.splice(index(h, arg(a, 1), v.length, true), 0, arg(a, 2));
    return newVec(h, v);
  },
  'v.b': (h, a) => newVec(h, [...vecOf(h, arg(a, 0)), ...vecOf(h, arg(a, 1))]),
  'v.c': (h, a) => {
    const v = vecOf(h, arg(a, 0));
    const start = index(h, arg(a, 1), v.length, true);
    const end = index(h, arg(a, 2), v.length, true);
    if (start > end) throw new HostError(ErrType.Object, ErrCode.IndexBounds, 'slice start after end');
    return newVec(h, v.slice(start, end));
  },
  'v.d': (h, a) => {
    const i = vecOf(h, arg(a, 0)).findIndex((x) => h.objects.compare(x, arg(a, 1)) === 0);
    return i < 0 ? VOID : u32Val(i);
  },
  'v.e': (h, a) => {
    const v = vecOf(h, arg(a, 0));
    for (let i = v.length - 1; i >= 0; i--)
      if (h.objects.compare(v[i] ?? VOID, arg(a, 1)) === 0) return u32Val(i);
    return VOID;
  },
  'v.f': (h, a) => {
    const { found, at } = findKey(h, vecOf(h, arg(a, 0)), arg(a, 1));
    return (found ? 1n << 32n : 0n) | BigInt(at);
  },
  'v.g': (h, a) => newVec(h, h.readVals(h.objects.u32Of(arg(a, 0)), h.objects.u32Of(arg(a, 1)))),
  'v.h': (h, a) => {
    const v = vecOf(h, arg(a, 0));
    const len = h.objects.u32Of(arg(a, 2));
    if (len !== v.length) throw new HostError(ErrType.Object, ErrCode.UnexpectedSize, 'vec length mismatch');
    h.writeVals(h.objects.u32Of(arg(a, 1)), v);
    return VOID;
  },
};
