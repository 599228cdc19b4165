import { xdr } from '@stellar/stellar-sdk';
import { ErrCode, ErrType, HostError } from '../errors.ts';
import { majorOf, minorOf, Tag, tagOf, u32Val, VOID } from '../val.ts';
import { arg, type HostFnTable, newBytes } from './types.ts';

export const contextFns: HostFnTable = {
  // log_from_linear_memory: diagnostic event with the message and values.
  'x._': (host, a) => {
    const o = host.objects;
    const msg = host.readMemory(o.u32Of(arg(a, 0)), o.u32Of(arg(a, 1)));
    const vals = host.readVals(o.u32Of(arg(a, 2)), o.u32Of(arg(a, 3)));
    host.emitDiagnostic(
      [xdr.ScVal.scvSymbol('log')],
      xdr.ScVal.scvVec([xdr.ScVal.scvString(Buffer.from(msg)), ...vals.map((v) => o.toScVal(v))]),
    );
    return VOID;
  },
  // obj_cmp returns a raw i64 (-1/0/1).
  'x.0': (host, a) => BigInt(host.objects.compare(arg(a, 0), arg(a, 1))),
  'x.1': (host, a) => {
    const topics = host.objects.getKind(arg(a, 0), 'vec').value;
    if (topics.length > 4)
      throw new HostError(ErrType.Events, ErrCode.ExceededLimit, 'more than 4 event topics');
    host.emitContractEvent(
      topics.map((t) => host.objects.toScVal(t)),
      host.objects.toScVal(arg(a, 1)),
    );
    return VOID;
  },
  'x.2': (host) => u32Val(host.ledger.protocolVersion),
  'x.3': (host) => u32Val(host.ledger.sequence),
  'x.4': (host) => host.objects.intVal('u64', host.ledger.timestamp),
  // fail_with_error: unwinds with the contract's error code.
  'x.5': (_host, a) => {
    const v = arg(a, 0);
    if (tagOf(v) !== Tag.Error)
      throw new HostError(ErrType.Value, ErrCode.UnexpectedType, 'fail_with_error needs an Error');
    if (minorOf(v) !== ErrType.Contract) {
      throw new HostError(ErrType.Context, ErrCode.UnexpectedType, 'fail_with_error needs a contract error');
    }
    throw new HostError(ErrType.Contract, majorOf(v), 'contract failed with error');
  },
  'x.6': (host) => newBytes(host, new Uint8Array(host.ledger.networkId)),
  'x.7': (host) => host.objects.add({ kind: 'address', value: host.frame.address }),
  'x.8': (host) => u32Val(host.ledger.sequence + host.config.maxEntryTtl - 1),
};
