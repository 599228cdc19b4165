import { addressOf, arg, type HostFnTable } from './types.ts';

export const callFns: HostFnTable = {
  'd._': (h, a) =>
    h.callContract(addressOf(h, arg(a, 0)), h.objects.symbolOf(arg(a, 1)), [
      ...h.objects.getKind(arg(a, 2), 'vec').value,
    ]),
  'd.0': (h, a) =>
    h.tryCallContract(addressOf(h, arg(a, 0)), h.objects.symbolOf(arg(a, 1)), [
      ...h.objects.getKind(arg(a, 2), 'vec').value,
    ]),
};
