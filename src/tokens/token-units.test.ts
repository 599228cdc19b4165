import { maxUint256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { requireSameLength, toUint256, toUint256List, toWholeTokens } from './token-units.ts';

describe('token units', () => {
  it('takes numbers, decimal strings and bigints up to 2^256 - 1', () => {
    expect(toUint256(5, 'amount')).toBe(5n);
    expect(toUint256('123456789012345678901234567890', 'amount')).toBe(123456789012345678901234567890n);
    expect(toUint256(maxUint256.toString(), 'amount')).toBe(maxUint256);
    expect(toUint256(7n, 'amount')).toBe(7n);
  });

  it('refuses what is not a uint256, naming the field', () => {
    expect(() => toUint256((maxUint256 + 1n).toString(), 'amount')).toThrow(/amount must be below 2\^256/);
    expect(() => toUint256('1'.repeat(79), 'amount')).toThrow(/amount must be a non-negative integer/);
    expect(() => toUint256('-1', 'amount')).toThrow(/amount/);
    expect(() => toUint256('1e3', 'amount')).toThrow(/amount/);
    expect(() => toUint256(1.5, 'amount')).toThrow(/amount must be an integer/);
    expect(() => toUint256(-1n, 'amount')).toThrow(/amount must not be negative/);
    expect(() => toUint256List([1, 'x'], 'ids')).toThrow(/ids\[1\]/);
  });

  it('keeps whole tokens scaled by 10^18 within uint256', () => {
    const largest = maxUint256 / 10n ** 18n;
    expect(toWholeTokens(largest.toString(), 'initialSupply')).toBe(largest);
    expect(() => toWholeTokens((largest + 1n).toString(), 'initialSupply')).toThrow(/initialSupply/);
  });

  it('pairs ids and amounts one to one', () => {
    expect(() => requireSameLength([1, 2], [1, 2])).not.toThrow();
    expect(() => requireSameLength([1, 2, 3], [1])).toThrow(/amounts has 1 item\(s\) but ids has 3/);
  });
});
