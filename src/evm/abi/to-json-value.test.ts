import { encodeFunctionResult, parseAbi, parseAbiItem } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeViewResult, toJsonValue } from './to-json-value.ts';

describe('toJsonValue', () => {
  it('turns safe integers into numbers at the 2^53 boundary', () => {
    expect(toJsonValue(2n ** 53n - 1n)).toBe(9007199254740991);
    expect(toJsonValue(-(2n ** 53n - 1n))).toBe(-9007199254740991);
    expect(toJsonValue(2n ** 53n)).toBe(9007199254740992n);
    expect(toJsonValue(-(2n ** 53n))).toBe(-9007199254740992n);
    expect(toJsonValue(0n)).toBe(0);
  });

  it('turns unsafe integer numbers into bigints', () => {
    expect(toJsonValue(12)).toBe(12);
    expect(toJsonValue(2 ** 60)).toBe(1152921504606846976n);
  });

  it('keeps strings, booleans and hex as they are', () => {
    expect(toJsonValue('0x52908400098527886E0F7030069857D2E4169EE7')).toBe(
      '0x52908400098527886E0F7030069857D2E4169EE7',
    );
    expect(toJsonValue('0xdead')).toBe('0xdead');
    expect(toJsonValue(true)).toBe(true);
  });

  it('converts arrays, objects and byte arrays recursively', () => {
    expect(toJsonValue([1n, [2n ** 64n], { a: 3n, b: [false] }])).toEqual([
      1,
      [18446744073709551616n],
      { a: 3, b: [false] },
    ]);
    expect(toJsonValue(new Uint8Array([1, 255]))).toBe('0x01ff');
    expect(toJsonValue(undefined)).toBeNull();
  });
});

describe('decodeViewResult', () => {
  const abi = parseAbi([
    'function balanceOf(address) view returns (uint256)',
    'function pair() view returns (uint256 a, address b)',
    'function nothing() view',
    'struct Info { address owner; uint256 big; bytes32 tag; }',
    'function info() view returns (Info)',
    'function infos() view returns (Info[], bool)',
    'function raw() view returns ((uint8, bool))',
  ]);
  const owner = '0x52908400098527886E0F7030069857D2E4169EE7';
  const tag = `0x${'11'.repeat(32)}` as const;

  it('wraps a single output in an array', () => {
    const fn = abi[0];
    const data = encodeFunctionResult({ abi: [fn], functionName: 'balanceOf', result: 10n ** 30n });
    expect(decodeViewResult(fn, data)).toEqual([1000000000000000000000000000000n]);
  });

  it('returns one entry per output in order', () => {
    const fn = abi[1];
    const data = encodeFunctionResult({ abi: [fn], functionName: 'pair', result: [7n, owner] });
    expect(decodeViewResult(fn, data)).toEqual([7, owner]);
  });

  it('returns an empty array for no outputs', () => {
    expect(decodeViewResult(abi[2], '0x')).toEqual([]);
  });

  it('returns structs as objects with their component names', () => {
    const fn = abi[3];
    const data = encodeFunctionResult({
      abi: [fn],
      functionName: 'info',
      result: { owner, big: 2n ** 200n, tag },
    });
    expect(decodeViewResult(fn, data)).toEqual([{ owner, big: 2n ** 200n, tag }]);
  });

  it('handles arrays of structs alongside other outputs', () => {
    const fn = abi[4];
    const data = encodeFunctionResult({
      abi: [fn],
      functionName: 'infos',
      result: [[{ owner, big: 1n, tag }], true],
    });
    expect(decodeViewResult(fn, data)).toEqual([[{ owner, big: 1, tag }], true]);
  });

  it('keeps unnamed tuple components positional', () => {
    const fn = parseAbiItem('function raw() view returns ((uint8, bool))');
    const data = encodeFunctionResult({ abi: [fn], functionName: 'raw', result: [5, true] });
    expect(decodeViewResult(fn, data)).toEqual([[5, true]]);
  });
});
