import { ErrCode, ErrType, HostError } from '../errors.ts';
import { VOID } from '../val.ts';
import { arg, bytesOf, type HostFnTable, newBytes } from './types.ts';

const U64 = 1n << 64n;

export const prngFns: HostFnTable = {
  'p._': (h, a) => {
    const seed = bytesOf(h, arg(a, 0));
    if (seed.length !== 32)
      throw new HostError(ErrType.Value, ErrCode.UnexpectedSize, 'prng seed must be 32 bytes');
    h.reseedPrng(Buffer.from(seed));
    return VOID;
  },
  'p.0': (h, a) => newBytes(h, new Uint8Array(h.nextPrngBytes(h.objects.u32Of(arg(a, 0))))),
  'p.1': (h, a) => {
    const lo = arg(a, 0);
    const hi = arg(a, 1);
    if (lo > hi) throw new HostError(ErrType.Value, ErrCode.InvalidInput, 'prng range lo > hi');
    const span = hi - lo + 1n;
    // Rejection sampling keeps the draw uniform.
    const limit = U64 - (U64 % span);
    for (;;) {
      const x = h.nextPrngBytes(8).readBigUInt64BE();
      if (x < limit) return lo + (x % span);
    }
  },
  'p.2': (h, a) => {
    const v = [...h.objects.getKind(arg(a, 0), 'vec').value];
    for (let i = v.length - 1; i > 0; i--) {
      const j = Number(h.nextPrngBytes(8).readBigUInt64BE() % BigInt(i + 1));
      const t = v[i] as bigint;
      v[i] = v[j] as bigint;
      v[j] = t;
    }
    return h.objects.add({ kind: 'vec', value: v });
  },
};
