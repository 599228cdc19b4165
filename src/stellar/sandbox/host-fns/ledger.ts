import { xdr } from '@stellar/stellar-sdk';
import { contractAddress, contractIdFromPreimage, createContract, uploadWasm } from '../contract-deploy.ts';
import { ErrCode, ErrType, HostError } from '../errors.ts';
import type { Host } from '../host.ts';
import { contractCodeKey, contractDataEntry, contractInstanceKey } from '../ledger-keys.ts';
import { VOID } from '../val.ts';
import { findKey } from './map-vec.ts';
import { addressOf, arg, bytesOf, type HostFnTable, newBytes } from './types.ts';

const INSTANCE = 2n;

function durability(t: bigint): xdr.ContractDataDurability {
  if (t === 0n) return xdr.ContractDataDurability.temporary();
  if (t === 1n) return xdr.ContractDataDurability.persistent();
  throw new HostError(ErrType.Storage, ErrCode.InvalidInput, `invalid storage type ${t}`);
}

function dataKey(h: Host, k: bigint, t: bigint): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: h.frame.address,
      key: h.objects.toScVal(k),
      durability: durability(t),
    }),
  );
}

function instanceLookup(h: Host, k: bigint) {
  const m = h.objects.getKind(h.frame.instanceStorage, 'map');
  return { m, ...findKey(h, m.keys, k) };
}

function hash32(h: Host, v: bigint): Buffer {
  const b = bytesOf(h, v);
  if (b.length !== 32) throw new HostError(ErrType.Object, ErrCode.UnexpectedSize, 'expected 32-byte hash');
  return Buffer.from(b);
}

function fromAddressPreimage(h: Host, deployer: bigint, salt: bigint): xdr.ContractIdPreimage {
  return xdr.ContractIdPreimage.contractIdPreimageFromAddress(
    new xdr.ContractIdPreimageFromAddress({ address: addressOf(h, deployer), salt: hash32(h, salt) }),
  );
}

function assetPreimage(h: Host, v: bigint): xdr.ContractIdPreimage {
  try {
    return xdr.ContractIdPreimage.contractIdPreimageFromAsset(xdr.Asset.fromXDR(Buffer.from(bytesOf(h, v))));
  } catch {
    throw new HostError(ErrType.Value, ErrCode.InvalidInput, 'serialized asset is not valid Asset XDR');
  }
}

function extendInstanceAndCode(
  h: Host,
  address: xdr.ScAddress,
  threshold: number,
  extendTo: number,
  which: 'both' | 'instance' | 'code',
) {
  const instanceKey = contractInstanceKey(address);
  const inst = h.storage.get(instanceKey);
  if (!inst) throw new HostError(ErrType.Storage, ErrCode.MissingValue, 'contract instance not found');
  if (which !== 'code') h.storage.extendTtl(instanceKey, threshold, extendTo);
  const exec = inst.data().contractData().val().instance().executable();
  if (which !== 'instance' && exec.switch().name === 'contractExecutableWasm') {
    h.storage.extendTtl(contractCodeKey(exec.wasmHash()), threshold, extendTo);
  }
}

export const ledgerFns: HostFnTable = {
  'l._': (h, a) => {
    const [k, v, t] = [arg(a, 0), arg(a, 1), arg(a, 2)];
    if (t === INSTANCE) {
      const { m, found, at } = instanceLookup(h, k);
      const keys = [...m.keys];
      const vals = [...m.vals];
      if (found) vals[at] = v;
      else {
        keys.splice(at, 0, k);
        vals.splice(at, 0, v);
      }
      h.frame.instanceStorage = h.objects.add({ kind: 'map', keys, vals });
      h.frame.instanceDirty = true;
      return VOID;
    }
    const key = dataKey(h, k, t);
    h.storage.put(
      key,
      contractDataEntry(
        h.frame.address,
        key.contractData().key(),
        durability(t),
        h.objects.toScVal(v),
        h.ledger.sequence,
      ),
    );
    return VOID;
  },
  'l.0': (h, a) => {
    if (arg(a, 1) === INSTANCE) return instanceLookup(h, arg(a, 0)).found ? 1n : 0n;
    return h.storage.get(dataKey(h, arg(a, 0), arg(a, 1))) ? 1n : 0n;
  },
  'l.1': (h, a) => {
    if (arg(a, 1) === INSTANCE) {
      const { m, found, at } = instanceLookup(h, arg(a, 0));
      if (!found)
        throw new HostError(ErrType.Storage, ErrCode.MissingValue, 'instance storage key not found');
      return m.vals[at] ?? VOID;
    }
    const e = h.storage.get(dataKey(h, arg(a, 0), arg(a, 1)));
    if (!e) throw new HostError(ErrType.Storage, ErrCode.MissingValue, 'contract data key not found');
    return h.objects.fromScVal(e.data().contractData().val());
  },
  'l.2': (h, a) => {
    if (arg(a, 1) === INSTANCE) {
      const { m, found, at } = instanceLookup(h, arg(a, 0));
      if (found) {
        h.frame.instanceStorage = h.objects.add({
          kind: 'map',
          keys: m.keys.filter((_, i) => i !== at),
          vals: m.vals.filter((_, i) => i !== at),
        });
        h.frame.instanceDirty = true;
      }
      return VOID;
    }
    const key = dataKey(h, arg(a, 0), arg(a, 1));
    if (h.storage.get(key)) h.storage.del(key);
    return VOID;
  },
  'l.3': (h, a) => {
    const exec = xdr.ContractExecutable.contractExecutableWasm(hash32(h, arg(a, 1)));
    const addr = createContract(h, {
      preimage: fromAddressPreimage(h, arg(a, 0), arg(a, 2)),
      executable: exec,
    });
    return h.objects.add({ kind: 'address', value: addr });
  },
  'l.4': (h, a) => {
    const preimage = assetPreimage(h, arg(a, 0));
    const exec = xdr.ContractExecutable.contractExecutableStellarAsset();
    return h.objects.add({ kind: 'address', value: createContract(h, { preimage, executable: exec }) });
  },
  'l.b': (h, a) => {
    const id = contractIdFromPreimage(h.ledger.networkId, assetPreimage(h, arg(a, 0)));
    return h.objects.add({ kind: 'address', value: contractAddress(id) });
  },
  'l.5': (h, a) => newBytes(h, new Uint8Array(uploadWasm(h, Buffer.from(bytesOf(h, arg(a, 0)))))),
  'l.6': (h, a) => {
    const wasmHash = hash32(h, arg(a, 0));
    if (!h.storage.get(contractCodeKey(wasmHash))) {
      throw new HostError(ErrType.Storage, ErrCode.MissingValue, 'wasm code has not been uploaded');
    }
    const f = h.frame;
    f.instance = new xdr.ScContractInstance({
      executable: xdr.ContractExecutable.contractExecutableWasm(wasmHash),
      storage: f.instance.storage(),
    });
    f.instanceDirty = true;
    return VOID;
  },
  'l.7': (h, a) => {
    if (arg(a, 1) === INSTANCE)
      throw new HostError(ErrType.Storage, ErrCode.InvalidInput, 'use instance TTL functions');
    const o = h.objects;
    h.storage.extendTtl(dataKey(h, arg(a, 0), arg(a, 1)), o.u32Of(arg(a, 2)), o.u32Of(arg(a, 3)));
    return VOID;
  },
  'l.8': (h, a) => {
    extendInstanceAndCode(h, h.frame.address, h.objects.u32Of(arg(a, 0)), h.objects.u32Of(arg(a, 1)), 'both');
    return VOID;
  },
  'l.9': (h, a) => {
    const o = h.objects;
    extendInstanceAndCode(h, addressOf(h, arg(a, 0)), o.u32Of(arg(a, 1)), o.u32Of(arg(a, 2)), 'both');
    return VOID;
  },
  'l.a': (h, a) => {
    const id = contractIdFromPreimage(h.ledger.networkId, fromAddressPreimage(h, arg(a, 0), arg(a, 1)));
    return h.objects.add({ kind: 'address', value: contractAddress(id) });
  },
  'l.c': (h, a) => {
    const o = h.objects;
    extendInstanceAndCode(h, addressOf(h, arg(a, 0)), o.u32Of(arg(a, 1)), o.u32Of(arg(a, 2)), 'instance');
    return VOID;
  },
  'l.d': (h, a) => {
    const o = h.objects;
    extendInstanceAndCode(h, addressOf(h, arg(a, 0)), o.u32Of(arg(a, 1)), o.u32Of(arg(a, 2)), 'code');
    return VOID;
  },
  'l.e': (h, a) => {
    const exec = xdr.ContractExecutable.contractExecutableWasm(hash32(h, arg(a, 1)));
    const args = h.objects.getKind(arg(a, 3), 'vec').value.map((v) => h.objects.toScVal(v));
    const addr = createContract(h, {
      preimage: fromAddressPreimage(h, arg(a, 0), arg(a, 2)),
      executable: exec,
      constructorArgs: args,
    });
    return h.objects.add({ kind: 'address', value: addr });
  },
};
