import { type AbiParameter, decodeAbiParameters, encodeAbiParameters, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { allSimpleWords, decodeSimpleWords, encodeSimpleWords } from './static-words.ts';

const address = '0x5B38Da6a701c568545dCfcB03FcB875f56beddC4';
const samples: Array<{ type: string; values: unknown[] }> = [
  { type: 'address', values: [address, '0x0000000000000000000000000000000000000000'] },
  { type: 'bool', values: [true, false] },
  { type: 'uint8', values: [0n, 1n, 255n] },
  { type: 'uint48', values: [0n, 2n ** 48n - 1n] },
  { type: 'uint56', values: [2n ** 56n - 1n] },
  { type: 'uint256', values: [0n, 1n, 10n ** 18n, 2n ** 256n - 1n] },
  { type: 'int8', values: [-128n, -1n, 0n, 127n] },
  { type: 'int48', values: [-(2n ** 47n), 2n ** 47n - 1n] },
  { type: 'int256', values: [-(2n ** 255n), -1n, 2n ** 255n - 1n] },
];

describe('static words', () => {
  it('takes only the simple static types', () => {
    expect(
      allSimpleWords([{ type: 'address' }, { type: 'uint256' }, { type: 'int8' }, { type: 'bool' }]),
    ).toBe(true);
    for (const type of ['bytes32', 'string', 'uint256[]', 'tuple', 'uint7', 'bytes', 'uint257'])
      expect(allSimpleWords([{ type } as AbiParameter])).toBe(false);
  });

  it('encodes and decodes every sample as viem does', () => {
    for (const { type, values } of samples) {
      for (const value of values) {
        const parameters = [{ type }, { type: 'uint256' }] as AbiParameter[];
        const args = [value, 7n];
        const viemEncoded = encodeAbiParameters(parameters, args as never);
        expect(`0x${encodeSimpleWords(parameters, args)}`).toBe(viemEncoded);
        expect(decodeSimpleWords(parameters, viemEncoded)).toEqual(
          decodeAbiParameters(parameters, viemEncoded),
        );
      }
    }
  });

  it('decodes words with stray high bits as viem does', () => {
    const word = `0x${'f'.repeat(64)}` as Hex;
    for (const type of ['int16', 'int48', 'int256', 'address', 'uint256']) {
      const parameters = [{ type }] as AbiParameter[];
      expect(decodeSimpleWords(parameters, word)).toEqual(decodeAbiParameters(parameters, word));
    }
    // viem refuses these (beyond the safe range for a small type): left to it, so its error stays.
    for (const type of ['uint8', 'uint48']) {
      const parameters = [{ type }] as AbiParameter[];
      expect(decodeSimpleWords(parameters, word)).toBeUndefined();
      expect(() => decodeAbiParameters(parameters, word)).toThrow();
    }
  });

  it('leaves short data and non-boolean bool words to viem', () => {
    expect(decodeSimpleWords([{ type: 'uint256' }], '0x')).toBeUndefined();
    expect(
      decodeSimpleWords([{ type: 'uint256' }, { type: 'uint256' }], `0x${'0'.repeat(64)}`),
    ).toBeUndefined();
    expect(decodeSimpleWords([{ type: 'bool' }], `0x${'0'.repeat(63)}2`)).toBeUndefined();
  });
});
