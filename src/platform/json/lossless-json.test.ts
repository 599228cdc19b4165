import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, parseLosslessJson, parseStoredJson } from './lossless-json.ts';

describe('parseLosslessJson', () => {
  it('keeps every number literal JSON.parse would change, wherever it stands', () => {
    expect(parseLosslessJson('12345678901234567890')).toBe('12345678901234567890');
    expect(parseLosslessJson('[1, -98765432109876543210]')).toEqual([1, '-98765432109876543210']);
    expect(parseLosslessJson('{"wei":1e18,"five":5.0,"half":2.5,"small":9007199254740991}')).toEqual({
      wei: '1e18',
      five: '5.0',
      half: 2.5,
      small: 9007199254740991,
    });
    expect(parseLosslessJson('{"exp":2.5E3}')).toEqual({ exp: '2.5E3' });
  });

  it('skips strings with escaped quotes and backslashes before reading the numbers after them', () => {
    // A scanner that took the escaped quote for the string's end, or the escaped backslash for an
    // escape of the closing quote, would read the number as inside a string and let JSON.parse round it.
    expect(parseLosslessJson('{"a":"say \\"hi\\" 1","n":12345678901234567890}')).toEqual({
      a: 'say "hi" 1',
      n: '12345678901234567890',
    });
    expect(parseLosslessJson('{"path":"C:\\\\","n":12345678901234567890}')).toEqual({
      path: 'C:\\',
      n: '12345678901234567890',
    });
    expect(parseLosslessJson('{"k\\\\\\"":"x","n":1e18}')).toEqual({ 'k\\"': 'x', n: '1e18' });
  });

  it('leaves number-like text inside strings alone', () => {
    expect(parseLosslessJson('{"s":"1e18","t":"12345678901234567890","u":"5.0"}')).toEqual({
      s: '1e18',
      t: '12345678901234567890',
      u: '5.0',
    });
  });

  it('refuses malformed JSON whichever parser reads it', () => {
    for (const text of ['{"a":"unterminated', '{"a":1e18', '[12345678901234567890,]', '{"a":01}']) {
      expect(() => parseLosslessJson(text), text).toThrow(JsonSyntaxError);
    }
  });
});

describe('parseStoredJson', () => {
  it('reads long integers as bigints and everything else as JSON.parse does', () => {
    expect(parseStoredJson('{"big":340282366920938463463374607431768211455,"n":7,"s":"x\\"1e18"}')).toEqual({
      big: 340282366920938463463374607431768211455n,
      n: 7,
      s: 'x"1e18',
    });
  });
});
