import { ErrCode, ErrType, HostError } from '../errors.ts';
import type { Host } from '../host.ts';
import type { IntKind } from '../object-table.ts';
import { arg, bytesOf, type HostFnTable, newBytes } from './types.ts';

const M64 = (1n << 64n) - 1n;
const LIMITS: Record<'u256' | 'i256', [bigint, bigint]> = {
  u256: [0n, (1n << 256n) - 1n],
  i256: [-(1n << 255n), (1n << 255n) - 1n],
};

const s64 = (v: bigint): bigint => BigInt.asIntN(64, v);

function piece(v: bigint, shift: bigint): bigint {
  return (v >> shift) & M64;
}

function checked(kind: 'u256' | 'i256', v: bigint, op: string): bigint {
  const [lo, hi] = LIMITS[kind];
  if (v < lo || v > hi) throw new HostError(ErrType.Object, ErrCode.ArithDomain, `${kind} ${op} overflow`);
  return v;
}

function beBytes(v: bigint, signed: boolean): Uint8Array {
  let x = signed && v < 0n ? (1n << 256n) + v : v;
  const out = new Uint8Array(32);
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

function fromBe(b: Uint8Array, signed: boolean): bigint {
  if (b.length !== 32) throw new HostError(ErrType.Object, ErrCode.UnexpectedSize, 'expected 32 bytes');
  let x = 0n;
  for (const byte of b) x = (x << 8n) | BigInt(byte);
  return signed ? BigInt.asIntN(256, x) : x;
}

type Binop = (a: bigint, b: bigint) => bigint;

function arith(kind: 'u256' | 'i256', name: string, f: Binop, rhsIsU32 = false) {
  return (host: Host, a: bigint[]): bigint => {
    const o = host.objects;
    const lhs = o.intOf(arg(a, 0), kind);
    const rhs = rhsIsU32 ? BigInt(o.u32Of(arg(a, 1))) : o.intOf(arg(a, 1), kind);
    host.charge(500);
    return o.intVal(kind, checked(kind, f(lhs, rhs), name));
  };
}

function pow(x: bigint, y: bigint): bigint {
  // Anything beyond |x| <= 1 overflows 256 bits long before 2^9, so never compute huge powers.
  if (y > 256n && (x > 1n || x < -1n))
    throw new HostError(ErrType.Object, ErrCode.ArithDomain, 'pow overflow');
  return x ** y;
}

function div(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new HostError(ErrType.Object, ErrCode.ArithDomain, 'division by zero');
  return a / b;
}

function remEuclid(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new HostError(ErrType.Object, ErrCode.ArithDomain, 'division by zero');
  const r = a % b;
  return r < 0n ? r + (b < 0n ? -b : b) : r;
}

function shift(bits: bigint, left: boolean, kind: 'u256' | 'i256'): Binop {
  return (a, n) => {
    if (n >= bits) throw new HostError(ErrType.Object, ErrCode.ArithDomain, 'shift too large');
    if (!left) return a >> n;
    const r = a << n;
    return kind === 'u256' ? r & ((1n << 256n) - 1n) : BigInt.asIntN(256, r);
  };
}

function intObj(kind: IntKind) {
  return (host: Host, v: bigint): bigint => host.objects.add({ kind, value: v });
}

export const intFns: HostFnTable = {
  'i._': (h, a) => intObj('u64')(h, arg(a, 0)),
  'i.0': (h, a) => h.objects.intOf(arg(a, 0), 'u64'),
  'i.1': (h, a) => intObj('i64')(h, s64(arg(a, 0))),
  'i.2': (h, a) => h.objects.intOf(arg(a, 0), 'i64'),
  'i.3': (h, a) => intObj('u128')(h, (arg(a, 0) << 64n) | arg(a, 1)),
  'i.4': (h, a) => piece(h.objects.intOf(arg(a, 0), 'u128'), 0n),
  'i.5': (h, a) => piece(h.objects.intOf(arg(a, 0), 'u128'), 64n),
  'i.6': (h, a) => intObj('i128')(h, (s64(arg(a, 0)) << 64n) | arg(a, 1)),
  'i.7': (h, a) => piece(h.objects.intOf(arg(a, 0), 'i128'), 0n),
  'i.8': (h, a) => piece(h.objects.intOf(arg(a, 0), 'i128'), 64n),
  'i.9': (h, a) =>
    intObj('u256')(h, (arg(a, 0) << 192n) | (arg(a, 1) << 128n) | (arg(a, 2) << 64n) | arg(a, 3)),
  'i.a': (h, a) => h.objects.intVal('u256', fromBe(bytesOf(h, arg(a, 0)), false)),
  'i.b': (h, a) => newBytes(h, beBytes(h.objects.intOf(arg(a, 0), 'u256'), false)),
  'i.c': (h, a) => piece(h.objects.intOf(arg(a, 0), 'u256'), 192n),
  'i.d': (h, a) => piece(h.objects.intOf(arg(a, 0), 'u256'), 128n),
  'i.e': (h, a) => piece(h.objects.intOf(arg(a, 0), 'u256'), 64n),
  'i.f': (h, a) => piece(h.objects.intOf(arg(a, 0), 'u256'), 0n),
  'i.g': (h, a) =>
    intObj('i256')(h, (s64(arg(a, 0)) << 192n) | (arg(a, 1) << 128n) | (arg(a, 2) << 64n) | arg(a, 3)),
  'i.h': (h, a) => h.objects.intVal('i256', fromBe(bytesOf(h, arg(a, 0)), true)),
  'i.i': (h, a) => newBytes(h, beBytes(h.objects.intOf(arg(a, 0), 'i256'), true)),
  'i.j': (h, a) => piece(h.objects.intOf(arg(a, 0), 'i256'), 192n),
  'i.k': (h, a) => piece(h.objects.intOf(arg(a, 0), 'i256'), 128n),
  'i.l': (h, a) => piece(h.objects.intOf(arg(a, 0), 'i256'), 64n),
  'i.m': (h, a) => piece(h.objects.intOf(arg(a, 0), 'i256'), 0n),
  'i.n': arith('u256', 'add', (x, y) => x + y),
  'i.o': arith('u256', 'sub', (x, y) => x - y),
  'i.p': arith('u256', 'mul', (x, y) => x * y),
  'i.q': arith('u256', 'div', div),
  'i.r': arith('u256', 'rem_euclid', remEuclid),
  'i.s': arith('u256', 'pow', pow, true),
  'i.t': arith('u256', 'shl', shift(256n, true, 'u256'), true),
  'i.u': arith('u256', 'shr', shift(256n, false, 'u256'), true),
  'i.v': arith('i256', 'add', (x, y) => x + y),
  'i.w': arith('i256', 'sub', (x, y) => x - y),
  'i.x': arith('i256', 'mul', (x, y) => x * y),
  'i.y': arith('i256', 'div', div),
  'i.z': arith('i256', 'rem_euclid', remEuclid),
  'i.A': arith('i256', 'pow', pow, true),
  'i.B': arith('i256', 'shl', shift(256n, true, 'i256'), true),
  'i.C': arith('i256', 'shr', shift(256n, false, 'i256'), true),
  'i.D': (h, a) => intObj('timepoint')(h, arg(a, 0)),
  'i.E': (h, a) => h.objects.intOf(arg(a, 0), 'timepoint'),
  'i.F': (h, a) => intObj('duration')(h, arg(a, 0)),
  'i.G': (h, a) => h.objects.intOf(arg(a, 0), 'duration'),
};
