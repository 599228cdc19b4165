import { scValToBigInt, xdr } from '@stellar/stellar-sdk';

const integerTypes = new Set([
  'scvU64',
  'scvI64',
  'scvU128',
  'scvI128',
  'scvU256',
  'scvI256',
  'scvTimepoint',
  'scvDuration',
]);

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * The order the Soroban host keeps map keys in (a map whose keys are out of order is refused): by type,
 * then by value. Vectors compare element by element; addresses and other objects by their XDR bytes,
 * which for addresses is the host's order (kind, then key bytes).
 */
export function compareScVal(a: xdr.ScVal, b: xdr.ScVal): number {
  const typeA = a.switch();
  const typeB = b.switch();
  if (typeA.value !== typeB.value) return typeA.value - typeB.value;
  const name = typeA.name;
  if (name === 'scvBool') return Number(a.b()) - Number(b.b());
  if (name === 'scvU32') return a.u32() - b.u32();
  if (name === 'scvI32') return a.i32() - b.i32();
  if (integerTypes.has(name)) {
    const x = scValToBigInt(a);
    const y = scValToBigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (name === 'scvSymbol') return compareBytes(Buffer.from(a.sym()), Buffer.from(b.sym()));
  if (name === 'scvString') return compareBytes(Buffer.from(a.str()), Buffer.from(b.str()));
  if (name === 'scvBytes') return compareBytes(a.bytes(), b.bytes());
  if (name === 'scvVec') {
    const x = a.vec() ?? [];
    const y = b.vec() ?? [];
    for (let index = 0; index < Math.min(x.length, y.length); index++) {
      const order = compareScVal(x[index] as xdr.ScVal, y[index] as xdr.ScVal);
      if (order !== 0) return order;
    }
    return x.length - y.length;
  }
  return compareBytes(a.toXDR(), b.toXDR());
}

/** A map ScVal with its entries sorted as the host requires. */
export function sortedMap(entries: xdr.ScMapEntry[]): xdr.ScVal {
  return xdr.ScVal.scvMap([...entries].sort((x, y) => compareScVal(x.key(), y.key())));
}
