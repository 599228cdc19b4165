import { createRequire } from 'node:module';
import { bytesToHex, type Hex, hexToBytes, keccak256, serializeTransaction } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';

type NativeSecp256k1 = {
  ecdsaSign(message: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
};

let native: NativeSecp256k1 | null | undefined;

/**
 * libsecp256k1 through the `secp256k1` package's prebuilt binding (no build step), or nothing when it
 * cannot load on this platform: then signing stays with viem's pure-JS noble code. Both sign RFC 6979
 * deterministically, so a transaction signs to the same bytes either way (a unit test compares them).
 */
function nativeSecp256k1(): NativeSecp256k1 | null {
  if (native === undefined) {
    try {
      native = createRequire(import.meta.url)('secp256k1/bindings') as NativeSecp256k1;
    } catch {
      native = null;
    }
  }
  return native;
}

/** Whether transactions are signed by libsecp256k1 here (for the startup log and the bench). */
export function nativeSigning(): boolean {
  return nativeSecp256k1() !== null;
}

/**
 * A viem account for a private key whose transaction signing runs in libsecp256k1: ~45 µs a
 * signature instead of ~300 µs in pure JavaScript, the largest single cost of a send. Messages and
 * typed data are signed by viem as before.
 */
export function evmAccount(privateKey: Hex): PrivateKeyAccount {
  const base = privateKeyToAccount(privateKey);
  const secp256k1 = nativeSecp256k1();
  if (!secp256k1) return base;
  const key = hexToBytes(privateKey);
  return {
    ...base,
    async signTransaction(transaction, options) {
      const serializer = options?.serializer ?? serializeTransaction;
      const signable = transaction.type === 'eip4844' ? { ...transaction, sidecars: false } : transaction;
      const hash = keccak256(await serializer(signable as never), 'bytes');
      const { signature, recid } = secp256k1.ecdsaSign(hash, key);
      return (await serializer(transaction as never, {
        r: bytesToHex(signature.subarray(0, 32)),
        s: bytesToHex(signature.subarray(32, 64)),
        yParity: recid,
        v: recid ? 28n : 27n,
      })) as never;
    },
  };
}
