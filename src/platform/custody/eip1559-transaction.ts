import type { Address, Hex } from 'viem';

/** The fields of an EIP-1559 transaction as the engine signs them (no access list). */
export type Eip1559Fields = {
  chainId: number;
  nonce: bigint;
  maxPriorityFeePerGas: bigint;
  maxFeePerGas: bigint;
  gas: bigint;
  /** Null for a deployment. */
  to: Address | null;
  value: bigint;
  data: Hex;
};

export type RecoverableSignature = { yParity: 0 | 1; r: Uint8Array; s: Uint8Array };

const EMPTY = new Uint8Array(0);

/** Big-endian bytes of a non-negative integer with no leading zeros (none for 0), as RLP wants them. */
function integerBytes(value: bigint): Uint8Array {
  // viem's serializer refused these; written here they would be silently wrong bytes.
  if (value < 0n) throw new RangeError(`a transaction field is negative (${value})`);
  if (value === 0n) return EMPTY;
  if (value < 0x100n) return Uint8Array.of(Number(value));
  const hex = value.toString(16);
  return Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
}

/** A 32-byte signature half as an integer (leading zero bytes dropped). */
function scalarBytes(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < bytes.length && bytes[start] === 0) start++;
  return bytes.subarray(start);
}

/** Bytes of RLP's length header for a string (offset 0x80) or a list (0xc0) of `length` bytes. */
function headerLength(length: number): number {
  if (length <= 55) return 1;
  let size = 0;
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) size++;
  return 1 + size;
}

function writeHeader(out: Uint8Array, at: number, offset: number, length: number): number {
  if (length <= 55) {
    out[at] = offset + length;
    return at + 1;
  }
  const size = headerLength(length) - 1;
  out[at] = offset + 55 + size;
  for (let i = size; i >= 1; i--, length = Math.floor(length / 256)) out[at + i] = length % 256;
  return at + 1 + size;
}

/** Encoded length of one RLP string item. */
function itemLength(bytes: Uint8Array): number {
  return bytes.length === 1 && (bytes[0] as number) < 0x80 ? 1 : headerLength(bytes.length) + bytes.length;
}

function writeItem(out: Uint8Array, at: number, bytes: Uint8Array): number {
  if (bytes.length === 1 && (bytes[0] as number) < 0x80) {
    out[at] = bytes[0] as number;
    return at + 1;
  }
  const start = writeHeader(out, at, 0x80, bytes.length);
  out.set(bytes, start);
  return start + bytes.length;
}

/** The RLP string items of a transaction's fields, made once for both the unsigned and the signed form. */
export function eip1559Items(fields: Eip1559Fields): Uint8Array[] {
  // Buffer.from drops a trailing odd digit or stops at a non-hex one without a word.
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(fields.data))
    throw new RangeError('transaction data is not whole bytes of hex');
  if (fields.to !== null && !/^0x[0-9a-fA-F]{40}$/.test(fields.to))
    throw new RangeError('transaction to is not an address');
  return [
    integerBytes(BigInt(fields.chainId)),
    integerBytes(fields.nonce),
    integerBytes(fields.maxPriorityFeePerGas),
    integerBytes(fields.maxFeePerGas),
    integerBytes(fields.gas),
    fields.to === null ? EMPTY : Buffer.from(fields.to.slice(2), 'hex'),
    integerBytes(fields.value),
    Buffer.from(fields.data.slice(2), 'hex'),
  ];
}

/**
 * The typed-transaction bytes `0x02 || rlp([...])` of EIP-1559, unsigned (the bytes whose hash is
 * signed) or signed, written into one buffer. Written here, not with viem's serializer, because a send
 * serializes twice and viem re-validates every field and goes through hex strings each time; the unit
 * test compares the bytes with viem's for many transactions.
 */
export function serializeEip1559(items: readonly Uint8Array[], signature?: RecoverableSignature): Buffer {
  const all = signature
    ? [...items, integerBytes(BigInt(signature.yParity)), scalarBytes(signature.r), scalarBytes(signature.s)]
    : items;
  // +1: the empty access list (0xc0) between the data and the signature.
  let payload = 1;
  for (const item of all) payload += itemLength(item);
  const out = Buffer.allocUnsafe(1 + headerLength(payload) + payload);
  out[0] = 0x02;
  let at = writeHeader(out, 1, 0xc0, payload);
  for (let i = 0; i < all.length; i++) {
    if (i === items.length) out[at++] = 0xc0;
    at = writeItem(out, at, all[i] as Uint8Array);
  }
  if (!signature) out[at++] = 0xc0;
  return out;
}
