import { type Address, getAddress } from 'viem';

const MAX_REMEMBERED = 10_000;
// EIP-55 checksumming is a keccak; the same few addresses come in on request after request.
const checksums = new Map<string, Address>();

/**
 * The checksummed form of an address written in any case, or undefined when mixed case carries a
 * wrong EIP-55 checksum (a mistyped address, most likely). The caller has checked the 0x-hex shape.
 */
export function checksummed(value: string): Address | undefined {
  const known = checksums.get(value);
  if (known) return known;
  const address = getAddress(value.toLowerCase());
  const body = value.slice(2);
  const uniformCase = body === body.toLowerCase() || body === body.toUpperCase();
  if (!uniformCase && value !== address) return undefined;
  if (checksums.size >= MAX_REMEMBERED) checksums.clear();
  checksums.set(value, address);
  return address;
}
