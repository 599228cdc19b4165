import { describe, expect, it } from 'vitest';
import { addBounded, setBounded } from './bounded.ts';

describe('setBounded', () => {
  it('drops the entry inserted first once the limit is reached', () => {
    const map = new Map<string, number>();
    for (const [index, key] of ['a', 'b', 'c'].entries()) setBounded(map, key, index, 2);
    expect([...map]).toEqual([
      ['b', 1],
      ['c', 2],
    ]);
  });

  it('replaces a kept key in place, dropping nothing', () => {
    const map = new Map([
      ['a', 0],
      ['b', 1],
    ]);
    setBounded(map, 'a', 9, 2);
    expect([...map]).toEqual([
      ['a', 9],
      ['b', 1],
    ]);
  });
});

describe('addBounded', () => {
  it('drops the value added first once the limit is reached, and keeps a known value where it is', () => {
    const set = new Set<string>();
    for (const value of ['a', 'b', 'b', 'c']) addBounded(set, value, 2);
    expect([...set]).toEqual(['b', 'c']);
    addBounded(set, 'b', 2);
    expect([...set]).toEqual(['b', 'c']);
  });
});
