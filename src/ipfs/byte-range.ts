/** What a `Range` header asks of a representation of `size` bytes. */
export type RangeRequest =
  | { kind: 'whole' }
  | { kind: 'part'; offset: number; length: number }
  | { kind: 'unsatisfiable' };

/**
 * Reads a `Range: bytes=…` header (RFC 9110 §14). One range is served as 206; a header that is not a
 * byte range, or that asks several ranges, is ignored (the whole file, 200), as the RFC allows; a
 * range that starts past the end is unsatisfiable (416).
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'whole' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    const length = Math.min(suffix, size);
    return length === 0 ? { kind: 'unsatisfiable' } : { kind: 'part', offset: size - length, length };
  }
  const offset = Number(first);
  if (!Number.isSafeInteger(offset) || offset >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < offset) return { kind: 'whole' };
  return { kind: 'part', offset, length: end - offset + 1 };
}
