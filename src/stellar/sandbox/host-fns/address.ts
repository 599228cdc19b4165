import { Address, xdr } from '@stellar/stellar-sdk';
import { scAddressToString } from '../auth.ts';
import { invocationFromInvokerEntry } from '../auth-contexts.ts';
import { ErrCode, ErrType, HostError } from '../errors.ts';
import type { Host } from '../host.ts';
import { contractInstanceKey } from '../ledger-keys.ts';
import { VOID } from '../val.ts';
import { addressOf, arg, type HostFnTable } from './types.ts';

function contractFn(h: Host, args: bigint[]): xdr.SorobanAuthorizedFunction {
  const f = h.frame;
  return xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(
    new xdr.InvokeContractArgs({
      contractAddress: f.address,
      functionName: f.fnName,
      args: args.map((v) => h.objects.toScVal(v)),
    }),
  );
}

export const addressFns: HostFnTable = {
  'a._': (h, a) => {
    h.requireAuth(addressOf(h, arg(a, 0)), contractFn(h, h.objects.getKind(arg(a, 1), 'vec').value));
    return VOID;
  },
  'a.0': (h, a) => {
    h.requireAuth(addressOf(h, arg(a, 0)), contractFn(h, h.frame.args));
    return VOID;
  },
  'a.1': (h, a) => {
    const obj = h.objects.get(arg(a, 0));
    if (obj.kind !== 'string' && obj.kind !== 'bytes') {
      throw new HostError(ErrType.Value, ErrCode.UnexpectedType, 'strkey must be a string or bytes');
    }
    try {
      const addr = Address.fromString(Buffer.from(obj.value).toString('latin1')).toScAddress();
      return h.objects.add({ kind: 'address', value: addr });
    } catch {
      throw new HostError(ErrType.Value, ErrCode.InvalidInput, 'invalid strkey');
    }
  },
  'a.3': (h, a) => {
    const f = h.frame;
    const entries = h.objects.getKind(arg(a, 0), 'vec').value.map((v) => h.objects.toScVal(v));
    let invocations: xdr.SorobanAuthorizedInvocation[];
    try {
      invocations = entries.map((e) => invocationFromInvokerEntry(e, f.address));
    } catch (e) {
      throw new HostError(
        ErrType.Auth,
        ErrCode.InvalidInput,
        `bad InvokerContractAuthEntry: ${(e as Error).message}`,
      );
    }
    h.auth.addInvokerAuth(f.address, invocations, f);
    return VOID;
  },
  'a.4': (h, a) => {
    const obj = h.objects.get(arg(a, 0));
    if (obj.kind === 'address') return arg(a, 0);
    if (obj.kind !== 'muxed')
      throw new HostError(ErrType.Value, ErrCode.UnexpectedType, 'expected a muxed address');
    const account = xdr.ScAddress.scAddressTypeAccount(
      xdr.PublicKey.publicKeyTypeEd25519(obj.value.muxedAccount().ed25519()),
    );
    return h.objects.add({ kind: 'address', value: account });
  },
  'a.5': (h, a) =>
    h.objects.intVal('u64', h.objects.getKind(arg(a, 0), 'muxed').value.muxedAccount().id().toBigInt()),
  // get_address_executable: Option<Executable> as soroban-sdk's enum (Wasm(hash) | StellarAsset | Account).
  'a.6': (h, a) => {
    const address = addressOf(h, arg(a, 0));
    if (address.switch().name === 'scAddressTypeAccount') {
      return h.objects.fromScVal(xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('Account')]));
    }
    const instance = h.storage.get(contractInstanceKey(address));
    if (!instance) return VOID;
    const exec = instance.data().contractData().val().instance().executable();
    const val =
      exec.switch().name === 'contractExecutableWasm'
        ? xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('Wasm'), xdr.ScVal.scvBytes(exec.wasmHash())])
        : xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('StellarAsset')]);
    return h.objects.fromScVal(val);
  },
  'a.2': (h, a) =>
    h.objects.add({
      kind: 'string',
      value: new Uint8Array(Buffer.from(scAddressToString(addressOf(h, arg(a, 0))))),
    }),
};
