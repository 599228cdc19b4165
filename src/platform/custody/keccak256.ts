import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { bytesToHex, type Hex, hexToBytes, keccak256 as viemKeccak256 } from 'viem';

/** The sponge of the `keccak` package's prebuilt binding (the reference Keccak code in C). */
type KeccakSponge = {
  initialize(rate: number, capacity: number): void;
  absorb(data: Uint8Array): void;
  absorbLastFewBits(bits: number): void;
  squeeze(length: number): Buffer;
};

let sponge: KeccakSponge | null | undefined;

/**
 * One sponge for the whole process, loaded on first use, or null when the binding cannot load on this
 * platform (then hashing stays with viem's pure-JS noble code). Hashing is synchronous, so sharing one
 * sponge is safe.
 */
function nativeSponge(): KeccakSponge | null {
  if (sponge === undefined) {
    try {
      const manifest = createRequire(import.meta.url).resolve('keccak/package.json');
      // node-gyp-build as the package itself resolves it: it picks the prebuilt binary for this platform.
      const load = createRequire(manifest)('node-gyp-build') as (dir: string) => new () => KeccakSponge;
      const Sponge = load(dirname(manifest));
      sponge = typeof Sponge === 'function' ? new Sponge() : null;
    } catch {
      sponge = null;
    }
  }
  return sponge;
}

/** Whether keccak-256 runs in native code here (for the startup log and a unit test). */
export function nativeKeccak(): boolean {
  return nativeSponge() !== null;
}

/**
 * Keccak-256 (Ethereum's, not SHA3-256) of bytes. The native sponge hashes a signed transaction in
 * ~2 µs where the pure-JS one takes ~20 µs, and a send hashes twice (to sign, then for its hash).
 */
export function keccak256Bytes(data: Uint8Array): Uint8Array {
  const native = nativeSponge();
  if (!native) return viemKeccak256(data, 'bytes');
  native.initialize(1088, 512);
  native.absorb(data);
  // Keccak's domain padding (0x01), where SHA3 uses 0x06.
  native.absorbLastFewBits(0x01);
  return native.squeeze(32);
}

/** Keccak-256 of bytes or 0x-hex, as 0x-hex. */
export function keccak256Hex(data: Uint8Array | Hex): Hex {
  return bytesToHex(keccak256Bytes(typeof data === 'string' ? hexToBytes(data) : data));
}
