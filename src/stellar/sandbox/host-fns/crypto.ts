import { createHash } from 'node:crypto';
import { Keypair, StrKey } from '@stellar/stellar-sdk';
import { keccak256 } from 'viem';
import { ErrCode, ErrType, HostError } from '../errors.ts';
import { VOID } from '../val.ts';
import { arg, bytesOf, type HostFnTable, newBytes } from './types.ts';

export const cryptoFns: HostFnTable = {
  'c._': (h, a) => {
    const b = bytesOf(h, arg(a, 0));
    h.charge(b.length * 5);
    return newBytes(h, new Uint8Array(createHash('sha256').update(b).digest()));
  },
  'c.0': (h, a) => {
    const pk = bytesOf(h, arg(a, 0));
    const msg = bytesOf(h, arg(a, 1));
    const sig = bytesOf(h, arg(a, 2));
    h.charge(380_000);
    if (pk.length !== 32 || sig.length !== 64) {
      throw new HostError(ErrType.Crypto, ErrCode.InvalidInput, 'bad ed25519 key or signature length');
    }
    const kp = Keypair.fromPublicKey(StrKey.encodeEd25519PublicKey(Buffer.from(pk)));
    if (!kp.verify(Buffer.from(msg), Buffer.from(sig))) {
      throw new HostError(ErrType.Crypto, ErrCode.InvalidInput, 'ed25519 signature verification failed');
    }
    return VOID;
  },
  'c.1': (h, a) => {
    const b = bytesOf(h, arg(a, 0));
    h.charge(b.length * 10);
    return newBytes(h, keccak256(b, 'bytes'));
  },
};
