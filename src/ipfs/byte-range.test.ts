import { describe, expect, it } from 'vitest';
import { parseRange } from './byte-range.ts';

describe('parseRange', () => {
  it.each([
    [undefined, { kind: 'whole' }],
    ['bytes=0-4', { kind: 'part', offset: 0, length: 5 }],
    ['bytes=5-', { kind: 'part', offset: 5, length: 7 }],
    ['bytes=-3', { kind: 'part', offset: 9, length: 3 }],
    ['bytes=-100', { kind: 'part', offset: 0, length: 12 }],
    ['bytes=3-100', { kind: 'part', offset: 3, length: 9 }],
    ['bytes=11-11', { kind: 'part', offset: 11, length: 1 }],
    ['bytes=12-', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=5-3', { kind: 'whole' }],
    ['bytes=0-1,3-4', { kind: 'whole' }],
    ['items=0-1', { kind: 'whole' }],
    ['bytes=-', { kind: 'whole' }],
    ['garbage', { kind: 'whole' }],
  ])('%s of 12 bytes', (header, expected) => {
    expect(parseRange(header, 12)).toEqual(expected);
  });

  it('an empty file has no satisfiable range', () => {
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-5', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});
