import type { xdr } from '@stellar/stellar-sdk';
import type { Host } from '../host.ts';

/** A host function as wasm sees it: raw 64-bit words in (unsigned), one 64-bit word out. */
export type HostFn = (host: Host, args: bigint[]) => bigint;

export type HostFnTable = Record<string, HostFn>;

export function arg(args: bigint[], i: number): bigint {
  return args[i] ?? 0n;
}

export function bytesOf(host: Host, v: bigint): Uint8Array {
  return host.objects.getKind(v, 'bytes').value;
}

export function addressOf(host: Host, v: bigint): xdr.ScAddress {
  return host.objects.getKind(v, 'address').value;
}

export function newBytes(host: Host, value: Uint8Array): bigint {
  return host.objects.add({ kind: 'bytes', value });
}
