// Soroban `Val` encoding: a 64-bit word whose low 8 bits are a tag and whose upper 56 bits are
// the body. Small values live inline in the body; everything else is an object handle (major
// half of the body). Numbers follow rs-soroban-env's `Tag` enum, which contracts hard-code.

export const Tag = {
  False: 0,
  True: 1,
  Void: 2,
  Error: 3,
  U32Val: 4,
  I32Val: 5,
  U64Small: 6,
  I64Small: 7,
  TimepointSmall: 8,
  DurationSmall: 9,
  U128Small: 10,
  I128Small: 11,
  U256Small: 12,
  I256Small: 13,
  SymbolSmall: 14,
  U64Object: 64,
  I64Object: 65,
  TimepointObject: 66,
  DurationObject: 67,
  U128Object: 68,
  I128Object: 69,
  U256Object: 70,
  I256Object: 71,
  BytesObject: 72,
  StringObject: 73,
  SymbolObject: 74,
  VecObject: 75,
  MapObject: 76,
  AddressObject: 77,
  MuxedAddressObject: 78,
} as const;

const MASK64 = (1n << 64n) - 1n;
const BODY_MAX = (1n << 56n) - 1n;
const SMALL_SIGNED_MIN = -(1n << 55n);
const SMALL_SIGNED_MAX = (1n << 55n) - 1n;

export const VOID = BigInt(Tag.Void);
export const TRUE = BigInt(Tag.True);
export const FALSE = BigInt(Tag.False);

/** Normalises whatever wasm handed us (signed i64 BigInt) to an unsigned 64-bit word. */
export function u64(v: bigint): bigint {
  return v & MASK64;
}

export function tagOf(v: bigint): number {
  return Number(u64(v) & 0xffn);
}

export function isObjectTag(tag: number): boolean {
  return tag > 63 && tag < 80;
}

export function bodyOf(v: bigint): bigint {
  return u64(v) >> 8n;
}

/** Body read as a sign-extended 56-bit integer (I64Small and friends). */
export function signedBodyOf(v: bigint): bigint {
  return BigInt.asIntN(64, u64(v)) >> 8n;
}

export function majorOf(v: bigint): number {
  return Number(u64(v) >> 32n);
}

export function minorOf(v: bigint): number {
  return Number((u64(v) >> 8n) & 0xffffffn);
}

export function fromBody(body: bigint, tag: number): bigint {
  return ((body & BODY_MAX) << 8n) | BigInt(tag);
}

export function fromMajorMinor(major: number, minor: number, tag: number): bigint {
  return (BigInt(major >>> 0) << 32n) | (BigInt(minor & 0xffffff) << 8n) | BigInt(tag);
}

export function boolVal(b: boolean): bigint {
  return b ? TRUE : FALSE;
}

export function u32Val(n: number): bigint {
  return fromMajorMinor(n >>> 0, 0, Tag.U32Val);
}

export function i32Val(n: number): bigint {
  return fromMajorMinor(n | 0, 0, Tag.I32Val);
}

export function fitsSmallUnsigned(n: bigint): boolean {
  return n >= 0n && n <= BODY_MAX;
}

export function fitsSmallSigned(n: bigint): boolean {
  return n >= SMALL_SIGNED_MIN && n <= SMALL_SIGNED_MAX;
}

export function errorVal(type: number, code: number): bigint {
  return fromMajorMinor(code, type, Tag.Error);
}

// SymbolSmall packs up to 9 chars of [_0-9A-Za-z] as 6-bit codes, first char most significant.
const SYMBOL_CHARS = '_0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function isValidSymbol(s: string): boolean {
  return s.length <= 32 && /^[_0-9A-Za-z]*$/.test(s);
}

export function trySmallSymbol(s: string): bigint | undefined {
  if (s.length > 9 || !isValidSymbol(s)) return undefined;
  let body = 0n;
  for (const ch of s) body = (body << 6n) | BigInt(SYMBOL_CHARS.indexOf(ch) + 1);
  return fromBody(body, Tag.SymbolSmall);
}

export function decodeSmallSymbol(v: bigint): string {
  let body = bodyOf(v);
  let out = '';
  while (body > 0n) {
    const code = Number(body & 63n);
    out = (SYMBOL_CHARS[code - 1] ?? '?') + out;
    body >>= 6n;
  }
  return out;
}

export function isSmallInt(tag: number): boolean {
  return tag >= Tag.U64Small && tag <= Tag.I256Small;
}

export function tagName(tag: number): string {
  for (const [k, v] of Object.entries(Tag)) if (v === tag) return k;
  return `tag${tag}`;
}
