import { xdr } from '@stellar/stellar-sdk';

export type IntKind = 'u64' | 'i64' | 'timepoint' | 'duration' | 'u128' | 'i128' | 'u256' | 'i256';

const U64_MASK = (1n << 64n) - 1n;

/** Builds the XDR form of an integer of the given kind (pieces split as the XDR defines them). */
export function intToScVal(kind: IntKind, v: bigint): xdr.ScVal {
  switch (kind) {
    case 'u64':
      return xdr.ScVal.scvU64(xdr.Uint64.fromString(v.toString()));
    case 'i64':
      return xdr.ScVal.scvI64(xdr.Int64.fromString(v.toString()));
    case 'timepoint':
      return xdr.ScVal.scvTimepoint(xdr.Uint64.fromString(v.toString()));
    case 'duration':
      return xdr.ScVal.scvDuration(xdr.Uint64.fromString(v.toString()));
    case 'u128':
      return xdr.ScVal.scvU128(
        new xdr.UInt128Parts({
          hi: xdr.Uint64.fromString((v >> 64n).toString()),
          lo: xdr.Uint64.fromString((v & U64_MASK).toString()),
        }),
      );
    case 'i128':
      return xdr.ScVal.scvI128(
        new xdr.Int128Parts({
          hi: xdr.Int64.fromString((v >> 64n).toString()),
          lo: xdr.Uint64.fromString((v & U64_MASK).toString()),
        }),
      );
    case 'u256':
      return xdr.ScVal.scvU256(
        new xdr.UInt256Parts({
          hiHi: xdr.Uint64.fromString(((v >> 192n) & U64_MASK).toString()),
          hiLo: xdr.Uint64.fromString(((v >> 128n) & U64_MASK).toString()),
          loHi: xdr.Uint64.fromString(((v >> 64n) & U64_MASK).toString()),
          loLo: xdr.Uint64.fromString((v & U64_MASK).toString()),
        }),
      );
    case 'i256':
      return xdr.ScVal.scvI256(
        new xdr.Int256Parts({
          hiHi: xdr.Int64.fromString((v >> 192n).toString()),
          hiLo: xdr.Uint64.fromString(((v >> 128n) & U64_MASK).toString()),
          loHi: xdr.Uint64.fromString(((v >> 64n) & U64_MASK).toString()),
          loLo: xdr.Uint64.fromString((v & U64_MASK).toString()),
        }),
      );
  }
}
