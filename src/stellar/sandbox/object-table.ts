import { xdr } from '@stellar/stellar-sdk';
import { ErrCode, ErrType, HostError, scErrorFromParts, scErrorParts } from './errors.ts';
import type { IntKind } from './int-scval.ts';
import { intToScVal } from './int-scval.ts';
import {
  bodyOf,
  boolVal,
  decodeSmallSymbol,
  errorVal,
  fitsSmallSigned,
  fitsSmallUnsigned,
  fromBody,
  fromMajorMinor,
  i32Val,
  isObjectTag,
  majorOf,
  minorOf,
  signedBodyOf,
  Tag,
  tagName,
  tagOf,
  trySmallSymbol,
  u32Val,
  VOID,
} from './val.ts';

export type { IntKind };

export type HostObject =
  | { kind: IntKind; value: bigint }
  | { kind: 'bytes'; value: Uint8Array }
  | { kind: 'string'; value: Uint8Array }
  | { kind: 'symbol'; value: string }
  | { kind: 'vec'; value: bigint[] }
  | { kind: 'map'; keys: bigint[]; vals: bigint[] }
  | { kind: 'address'; value: xdr.ScAddress }
  | { kind: 'muxed'; value: xdr.ScAddress };

export type ObjectKind = HostObject['kind'];

const KIND_BY_TAG: Record<number, ObjectKind> = {
  [Tag.U64Object]: 'u64',
  [Tag.I64Object]: 'i64',
  [Tag.TimepointObject]: 'timepoint',
  [Tag.DurationObject]: 'duration',
  [Tag.U128Object]: 'u128',
  [Tag.I128Object]: 'i128',
  [Tag.U256Object]: 'u256',
  [Tag.I256Object]: 'i256',
  [Tag.BytesObject]: 'bytes',
  [Tag.StringObject]: 'string',
  [Tag.SymbolObject]: 'symbol',
  [Tag.VecObject]: 'vec',
  [Tag.MapObject]: 'map',
  [Tag.AddressObject]: 'address',
  [Tag.MuxedAddressObject]: 'muxed',
};

const TAG_BY_KIND = Object.fromEntries(Object.entries(KIND_BY_TAG).map(([t, k]) => [k, Number(t)])) as Record<
  ObjectKind,
  number
>;

const SMALL_TAG_BY_INT: Record<IntKind, number> = {
  u64: Tag.U64Small,
  i64: Tag.I64Small,
  timepoint: Tag.TimepointSmall,
  duration: Tag.DurationSmall,
  u128: Tag.U128Small,
  i128: Tag.I128Small,
  u256: Tag.U256Small,
  i256: Tag.I256Small,
};

const SIGNED: ReadonlySet<IntKind> = new Set(['i64', 'i128', 'i256']);

// Order of value kinds follows ScValType so that maps sort like the network's host does.
const KIND_RANK: Record<string, number> = {
  bool: 0,
  void: 1,
  error: 2,
  u32: 3,
  i32: 4,
  u64: 5,
  i64: 6,
  timepoint: 7,
  duration: 8,
  u128: 9,
  i128: 10,
  u256: 11,
  i256: 12,
  bytes: 13,
  string: 14,
  symbol: 15,
  vec: 16,
  map: 17,
  address: 18,
  muxed: 19,
};

function intKindOfSmallTag(tag: number): IntKind | undefined {
  for (const [k, t] of Object.entries(SMALL_TAG_BY_INT)) if (t === tag) return k as IntKind;
  return undefined;
}

/** Host-side object storage addressed by the handles carried in object Vals. */
export class ObjectTable {
  private readonly objects: HostObject[] = [];

  add(obj: HostObject): bigint {
    this.objects.push(obj);
    return fromMajorMinor(this.objects.length - 1, 0, TAG_BY_KIND[obj.kind]);
  }

  get(v: bigint): HostObject {
    const tag = tagOf(v);
    if (!isObjectTag(tag)) {
      throw new HostError(ErrType.Value, ErrCode.UnexpectedType, `expected an object, got ${tagName(tag)}`);
    }
    const obj = this.objects[majorOf(v)];
    if (!obj || KIND_BY_TAG[tag] !== obj.kind) {
      throw new HostError(ErrType.Object, ErrCode.MissingValue, `unknown object handle ${majorOf(v)}`);
    }
    return obj;
  }

  getKind<K extends ObjectKind>(v: bigint, kind: K): Extract<HostObject, { kind: K }> {
    const obj = this.get(v);
    if (obj.kind !== kind) {
      throw new HostError(ErrType.Value, ErrCode.UnexpectedType, `expected ${kind} object, got ${obj.kind}`);
    }
    return obj as Extract<HostObject, { kind: K }>;
  }

  /** Builds the canonical Val for an integer: small when it fits, object otherwise. */
  intVal(kind: IntKind, value: bigint): bigint {
    const fits = SIGNED.has(kind) ? fitsSmallSigned(value) : fitsSmallUnsigned(value);
    if (fits) return fromBody(value, SMALL_TAG_BY_INT[kind]);
    return this.add({ kind, value });
  }

  /** Reads an integer of the given kind from either its small or object form. */
  intOf(v: bigint, kind: IntKind): bigint {
    const tag = tagOf(v);
    if (tag === SMALL_TAG_BY_INT[kind]) return SIGNED.has(kind) ? signedBodyOf(v) : bodyOf(v);
    const obj = this.getKind(v, kind);
    return obj.value;
  }

  symbolVal(s: string): bigint {
    return trySmallSymbol(s) ?? this.add({ kind: 'symbol', value: s });
  }

  symbolOf(v: bigint): string {
    const tag = tagOf(v);
    if (tag === Tag.SymbolSmall) return decodeSmallSymbol(v);
    return this.getKind(v, 'symbol').value;
  }

  u32Of(v: bigint): number {
    if (tagOf(v) !== Tag.U32Val) {
      throw new HostError(ErrType.Value, ErrCode.UnexpectedType, `expected U32Val, got ${tagName(tagOf(v))}`);
    }
    return majorOf(v);
  }

  toScVal(v: bigint): xdr.ScVal {
    const tag = tagOf(v);
    switch (tag) {
      case Tag.False:
        return xdr.ScVal.scvBool(false);
      case Tag.True:
        return xdr.ScVal.scvBool(true);
      case Tag.Void:
        return xdr.ScVal.scvVoid();
      case Tag.Error:
        return xdr.ScVal.scvError(scErrorFromParts(minorOf(v), majorOf(v)));
      case Tag.U32Val:
        return xdr.ScVal.scvU32(majorOf(v));
      case Tag.I32Val:
        return xdr.ScVal.scvI32(majorOf(v) | 0);
      case Tag.SymbolSmall:
        return xdr.ScVal.scvSymbol(decodeSmallSymbol(v));
    }
    const small = intKindOfSmallTag(tag);
    if (small) return intToScVal(small, SIGNED.has(small) ? signedBodyOf(v) : bodyOf(v));
    const obj = this.get(v);
    switch (obj.kind) {
      case 'bytes':
        return xdr.ScVal.scvBytes(Buffer.from(obj.value));
      case 'string':
        return xdr.ScVal.scvString(Buffer.from(obj.value));
      case 'symbol':
        return xdr.ScVal.scvSymbol(obj.value);
      case 'vec':
        return xdr.ScVal.scvVec(obj.value.map((x) => this.toScVal(x)));
      case 'map':
        return xdr.ScVal.scvMap(
          obj.keys.map(
            (k, i) => new xdr.ScMapEntry({ key: this.toScVal(k), val: this.toScVal(obj.vals[i] ?? VOID) }),
          ),
        );
      case 'address':
      case 'muxed':
        return xdr.ScVal.scvAddress(obj.value);
      default:
        return intToScVal(obj.kind, obj.value);
    }
  }

  fromScVal(sc: xdr.ScVal): bigint {
    switch (sc.switch().name) {
      case 'scvBool':
        return boolVal(sc.b());
      case 'scvVoid':
        return VOID;
      case 'scvError': {
        const { type, code } = scErrorParts(sc.error());
        return errorVal(type, code);
      }
      case 'scvU32':
        return u32Val(sc.u32());
      case 'scvI32':
        return i32Val(sc.i32());
      case 'scvU64':
        return this.intVal('u64', sc.u64().toBigInt());
      case 'scvI64':
        return this.intVal('i64', sc.i64().toBigInt());
      case 'scvTimepoint':
        return this.intVal('timepoint', sc.timepoint().toBigInt());
      case 'scvDuration':
        return this.intVal('duration', sc.duration().toBigInt());
      case 'scvU128': {
        const p = sc.u128();
        return this.intVal('u128', (p.hi().toBigInt() << 64n) | p.lo().toBigInt());
      }
      case 'scvI128': {
        const p = sc.i128();
        return this.intVal('i128', (p.hi().toBigInt() << 64n) | p.lo().toBigInt());
      }
      case 'scvU256': {
        const p = sc.u256();
        const v =
          (p.hiHi().toBigInt() << 192n) |
          (p.hiLo().toBigInt() << 128n) |
          (p.loHi().toBigInt() << 64n) |
          p.loLo().toBigInt();
        return this.intVal('u256', v);
      }
      case 'scvI256': {
        const p = sc.i256();
        const v =
          (p.hiHi().toBigInt() << 192n) |
          (p.hiLo().toBigInt() << 128n) |
          (p.loHi().toBigInt() << 64n) |
          p.loLo().toBigInt();
        return this.intVal('i256', v);
      }
      case 'scvBytes':
        return this.add({ kind: 'bytes', value: new Uint8Array(sc.bytes()) });
      case 'scvString':
        return this.add({ kind: 'string', value: new Uint8Array(Buffer.from(sc.str() as Buffer | string)) });
      case 'scvSymbol':
        return this.symbolVal(sc.sym().toString());
      case 'scvVec':
        return this.add({ kind: 'vec', value: (sc.vec() ?? []).map((x) => this.fromScVal(x)) });
      case 'scvMap': {
        const entries = (sc.map() ?? []).map(
          (e) => [this.fromScVal(e.key()), this.fromScVal(e.val())] as const,
        );
        return this.newMap(entries);
      }
      case 'scvAddress': {
        // Muxed (M…) addresses are their own object type since protocol 23.
        const muxed = sc.address().switch().name === 'scAddressTypeMuxedAccount';
        return this.add({ kind: muxed ? 'muxed' : 'address', value: sc.address() });
      }
      default:
        throw new HostError(
          ErrType.Value,
          ErrCode.UnexpectedType,
          `${sc.switch().name} cannot be a contract value`,
        );
    }
  }

  newMap(entries: ReadonlyArray<readonly [bigint, bigint]>): bigint {
    const sorted = [...entries].sort((a, b) => this.compare(a[0], b[0]));
    for (let i = 1; i < sorted.length; i++) {
      const prev = sorted[i - 1];
      const cur = sorted[i];
      if (prev && cur && this.compare(prev[0], cur[0]) === 0) {
        throw new HostError(ErrType.Object, ErrCode.InvalidInput, 'map has duplicate keys');
      }
    }
    return this.add({ kind: 'map', keys: sorted.map((e) => e[0]), vals: sorted.map((e) => e[1]) });
  }

  private kindOf(v: bigint): string {
    const tag = tagOf(v);
    if (tag === Tag.False || tag === Tag.True) return 'bool';
    if (tag === Tag.Void) return 'void';
    if (tag === Tag.Error) return 'error';
    if (tag === Tag.U32Val) return 'u32';
    if (tag === Tag.I32Val) return 'i32';
    if (tag === Tag.SymbolSmall) return 'symbol';
    const small = intKindOfSmallTag(tag);
    if (small) return small;
    return this.get(v).kind;
  }

  /** Total order over Vals, consistent between small and object forms of the same value. */
  compare(a: bigint, b: bigint): number {
    const ka = this.kindOf(a);
    const kb = this.kindOf(b);
    if (ka !== kb) return Math.sign((KIND_RANK[ka] ?? 99) - (KIND_RANK[kb] ?? 99));
    switch (ka) {
      case 'bool':
      case 'void':
        return cmp(tagOf(a), tagOf(b));
      case 'error':
        return cmp(minorOf(a), minorOf(b)) || cmp(majorOf(a), majorOf(b));
      case 'u32':
        return cmp(majorOf(a), majorOf(b));
      case 'i32':
        return cmp(majorOf(a) | 0, majorOf(b) | 0);
      case 'symbol':
        return cmpBytes(Buffer.from(this.symbolOf(a)), Buffer.from(this.symbolOf(b)));
      case 'bytes':
      case 'string':
        return cmpBytes(
          (this.get(a) as { value: Uint8Array }).value,
          (this.get(b) as { value: Uint8Array }).value,
        );
      case 'vec': {
        const va = this.getKind(a, 'vec').value;
        const vb = this.getKind(b, 'vec').value;
        for (let i = 0; i < Math.min(va.length, vb.length); i++) {
          const c = this.compare(va[i] ?? VOID, vb[i] ?? VOID);
          if (c !== 0) return c;
        }
        return cmp(va.length, vb.length);
      }
      case 'map': {
        const ma = this.getKind(a, 'map');
        const mb = this.getKind(b, 'map');
        for (let i = 0; i < Math.min(ma.keys.length, mb.keys.length); i++) {
          const c =
            this.compare(ma.keys[i] ?? VOID, mb.keys[i] ?? VOID) ||
            this.compare(ma.vals[i] ?? VOID, mb.vals[i] ?? VOID);
          if (c !== 0) return c;
        }
        return cmp(ma.keys.length, mb.keys.length);
      }
      case 'address':
        return cmpBytes(this.getKind(a, 'address').value.toXDR(), this.getKind(b, 'address').value.toXDR());
      default:
        return cmp(this.intOf(a, ka as IntKind), this.intOf(b, ka as IntKind));
    }
  }
}

function cmp(a: number | bigint, b: number | bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function cmpBytes(a: Uint8Array, b: Uint8Array): number {
  return Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));
}
