import { type AbiParameter, encodeFunctionData, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { coerceParams } from './coerce-params.ts';

const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7';
const lower = checksummed.toLowerCase();

function coerceOne(type: string, value: unknown, extra: Partial<AbiParameter> = {}): unknown {
  return coerceParams([{ name: 'x', type, ...extra } as AbiParameter], [value])[0];
}

function thrown(fn: () => unknown): ChaingateError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ChaingateError);
    return error as ChaingateError;
  }
  throw new Error('expected a throw');
}

const transferInputs = [
  { name: 'to', type: 'address' },
  { name: 'amount', type: 'uint256' },
] as const;

describe('coerceParams: count', () => {
  it('names the method and its inputs on a wrong count', () => {
    const error = thrown(() => coerceParams(transferInputs, [checksummed], 'params', 'method transfer'));
    expect(error.code).toBe('CG_ERR_PARAM_COUNT');
    expect(error.message).toBe('method transfer takes 2 params (to: address, amount: uint256), got 1');
  });

  it('rejects params that are not an array', () => {
    expect(thrown(() => coerceParams(transferInputs, 'x' as never)).message).toContain(
      'params: expected a JSON array',
    );
  });

  it('accepts an empty list for no inputs', () => {
    expect(coerceParams([], [])).toEqual([]);
    expect(thrown(() => coerceParams([], [1], 'args', 'constructor')).message).toBe(
      'constructor takes 0 args (none), got 1',
    );
  });
});

describe('coerceParams: address', () => {
  it('accepts checksummed, lower and upper case and returns the checksum', () => {
    expect(coerceOne('address', checksummed)).toBe(checksummed);
    expect(coerceOne('address', lower)).toBe(checksummed);
    expect(coerceOne('address', `0x${checksummed.slice(2).toUpperCase()}`)).toBe(checksummed);
  });

  it('rejects a wrong mixed-case checksum', () => {
    const bad = checksummed.replace('E', 'e');
    const error = thrown(() => coerceOne('address', bad));
    expect(error.code).toBe('CG_ERR_INVALID_PARAM');
    expect(error.message).toContain('params[0] (x: address)');
    expect(error.message).toContain(checksummed);
  });

  it('rejects wrong lengths, missing 0x and non-strings', () => {
    for (const value of [checksummed.slice(0, 41), checksummed.slice(2), 123, null, `${lower}00`]) {
      expect(thrown(() => coerceOne('address', value)).message).toContain('expected an address');
    }
  });
});

describe('coerceParams: integers', () => {
  it('takes JSON numbers, decimal strings and hex strings as bigints', () => {
    expect(coerceOne('uint256', 5)).toBe(5n);
    expect(coerceOne('uint256', '123456789012345678901234567890')).toBe(123456789012345678901234567890n);
    expect(coerceOne('uint256', '0xff')).toBe(255n);
    expect(coerceOne('int256', '-42')).toBe(-42n);
    expect(coerceOne('int', -7)).toBe(-7n);
    expect(coerceOne('uint', 0)).toBe(0n);
  });

  it('formats the message as documented', () => {
    expect(thrown(() => coerceParams(transferInputs, [checksummed, 'abc'])).message).toBe(
      'params[1] (amount: uint256): expected an integer as a JSON number or decimal string or 0x-hex string, got "abc"',
    );
  });

  it('rejects fractions, unsafe numbers and malformed strings', () => {
    for (const value of [1.5, 1e21, 2 ** 53, '1.5', '', ' 1', '1e3', '-1', true, null, '0x', {}]) {
      expect(thrown(() => coerceOne('uint256', value)).code).toBe('CG_ERR_INVALID_PARAM');
    }
  });

  it('accepts the largest safe integer as a number', () => {
    expect(coerceOne('uint256', Number.MAX_SAFE_INTEGER)).toBe(2n ** 53n - 1n);
    expect(coerceOne('int256', -Number.MAX_SAFE_INTEGER)).toBe(-(2n ** 53n - 1n));
  });

  it('checks uintN bounds', () => {
    expect(coerceOne('uint8', 255)).toBe(255n);
    expect(thrown(() => coerceOne('uint8', 256)).message).toContain(
      'expected an integer from 0 to 255, got 256',
    );
    expect(coerceOne('uint256', (2n ** 256n - 1n).toString())).toBe(2n ** 256n - 1n);
    expect(thrown(() => coerceOne('uint256', (2n ** 256n).toString())).code).toBe('CG_ERR_INVALID_PARAM');
  });

  it('checks intN bounds', () => {
    expect(coerceOne('int8', -128)).toBe(-128n);
    expect(coerceOne('int8', 127)).toBe(127n);
    expect(thrown(() => coerceOne('int8', -129)).message).toContain('from -128 to 127');
    expect(thrown(() => coerceOne('int8', 128)).code).toBe('CG_ERR_INVALID_PARAM');
    expect(thrown(() => coerceOne('int8', '0x80')).code).toBe('CG_ERR_INVALID_PARAM');
  });
});

describe('coerceParams: bool, string, bytes', () => {
  it('takes booleans and their string forms', () => {
    expect(coerceOne('bool', true)).toBe(true);
    expect(coerceOne('bool', 'false')).toBe(false);
    expect(thrown(() => coerceOne('bool', 1)).message).toContain('expected true or false, got 1');
    expect(thrown(() => coerceOne('bool', 'TRUE')).code).toBe('CG_ERR_INVALID_PARAM');
  });

  it('takes strings only for string', () => {
    expect(coerceOne('string', 'hi')).toBe('hi');
    expect(coerceOne('string', '')).toBe('');
    expect(thrown(() => coerceOne('string', 5)).message).toContain('expected a string, got 5');
  });

  it('takes even-length hex for bytes', () => {
    expect(coerceOne('bytes', '0x')).toBe('0x');
    expect(coerceOne('bytes', '0xdeadBEEF')).toBe('0xdeadBEEF');
    for (const value of ['0xabc', 'abcd', '0xzz', 12]) {
      expect(thrown(() => coerceOne('bytes', value)).code).toBe('CG_ERR_INVALID_PARAM');
    }
  });

  it('takes exactly N bytes for bytesN', () => {
    expect(coerceOne('bytes4', '0x12345678')).toBe('0x12345678');
    expect(coerceOne('bytes32', `0x${'ab'.repeat(32)}`)).toBe(`0x${'ab'.repeat(32)}`);
    expect(thrown(() => coerceOne('bytes4', '0x123456')).message).toContain('exactly 4 bytes');
    expect(thrown(() => coerceOne('bytes4', '0x1234567890')).code).toBe('CG_ERR_INVALID_PARAM');
  });

  it('rejects unsupported types', () => {
    expect(thrown(() => coerceOne('function', '0x')).message).toContain('not supported');
  });
});

describe('coerceParams: arrays', () => {
  it('coerces dynamic arrays element by element', () => {
    expect(coerceOne('uint8[]', [1, '2', '0x03'])).toEqual([1n, 2n, 3n]);
    expect(coerceOne('address[]', [])).toEqual([]);
  });

  it('checks fixed array lengths', () => {
    expect(coerceOne('uint8[2]', [1, 2])).toEqual([1n, 2n]);
    const error = thrown(() => coerceOne('uint8[2]', [1, 2, 3]));
    expect(error.message).toBe('params[0] (x: uint8[2]): expected 2 items, got 3');
  });

  it('handles nested arrays, innermost suffix first', () => {
    // uint8[2][] is a dynamic list of pairs.
    expect(
      coerceOne('uint8[2][]', [
        [1, 2],
        [3, 4],
        [5, 6],
      ]),
    ).toEqual([
      [1n, 2n],
      [3n, 4n],
      [5n, 6n],
    ]);
    expect(thrown(() => coerceOne('uint8[2][]', [[1, 2], [3]])).message).toContain('params[0][1] (uint8[2])');
  });

  it('names the element path', () => {
    const error = thrown(() => coerceOne('address[]', [checksummed, 'nope']));
    expect(error.message).toContain('params[0][1] (address): expected an address');
  });

  it('rejects non-arrays', () => {
    expect(thrown(() => coerceOne('uint8[]', '1,2')).message).toContain('expected a JSON array');
  });
});

describe('coerceParams: tuples', () => {
  const order = {
    name: 'order',
    type: 'tuple',
    components: [
      { name: 'maker', type: 'address' },
      { name: 'recipients', type: 'address[]' },
      {
        name: 'terms',
        type: 'tuple',
        components: [
          { name: 'amount', type: 'uint256' },
          { name: 'deadline', type: 'uint64' },
        ],
      },
    ],
  } as const satisfies AbiParameter;

  it('takes a tuple as an object keyed by component names', () => {
    const [value] = coerceParams(
      [order],
      [{ maker: lower, recipients: [lower], terms: { amount: '10', deadline: 5 } }],
    );
    expect(value).toEqual([checksummed, [checksummed], [10n, 5n]]);
  });

  it('takes a tuple as a positional array', () => {
    expect(coerceParams([order], [[lower, [], [1, 2]]])).toEqual([[checksummed, [], [1n, 2n]]]);
  });

  it('names missing and unexpected keys', () => {
    const error = thrown(() =>
      coerceParams([order], [{ maker: lower, terms: { amount: 1, deadline: 1 }, extra: 1 }]),
    );
    expect(error.code).toBe('CG_ERR_INVALID_PARAM');
    expect(error.message).toContain('params[0] (order: (address,address[],(uint256,uint64)))');
    expect(error.message).toContain('missing key(s) recipients');
    expect(error.message).toContain('unexpected key(s) extra');
  });

  it('names the nested path of a bad value', () => {
    const error = thrown(() =>
      coerceParams(
        [order],
        [{ maker: lower, recipients: [lower, lower, 'bad'], terms: { amount: 1, deadline: 1 } }],
      ),
    );
    expect(error.message).toContain('params[0].recipients[2] (address)');
    const deep = thrown(() =>
      coerceParams([order], [{ maker: lower, recipients: [], terms: { amount: 1, deadline: -1 } }]),
    );
    expect(deep.message).toContain('params[0].terms.deadline (deadline: uint64)');
  });

  it('checks the positional length', () => {
    expect(thrown(() => coerceParams([order], [[lower]])).message).toContain('expected 3 tuple items, got 1');
  });

  it('requires the array form for unnamed components', () => {
    const pair = {
      name: 'p',
      type: 'tuple',
      components: [{ type: 'uint8' }, { type: 'bool' }],
    } as AbiParameter;
    expect(coerceParams([pair], [[1, true]])).toEqual([[1n, true]]);
    expect(thrown(() => coerceParams([pair], [{ a: 1 }])).message).toContain('unnamed components');
    expect(thrown(() => coerceParams([pair], [[1, 'x']])).message).toContain('params[0][1] (bool)');
  });

  it('rejects non-objects', () => {
    expect(thrown(() => coerceParams([order], [null])).message).toContain('expected a JSON array or object');
  });

  it('handles arrays of tuples and uses the custom label', () => {
    const items = {
      name: 'items',
      type: 'tuple[]',
      components: [{ name: 'to', type: 'address' }],
    } as AbiParameter;
    expect(coerceParams([items], [[{ to: lower }, [lower]]])).toEqual([[[checksummed], [checksummed]]]);
    expect(thrown(() => coerceParams([items], [[{ to: lower }, { to: 1 }]], 'args')).message).toContain(
      'args[0][1].to (to: address)',
    );
  });
});

describe('coerceParams: output', () => {
  it('is accepted by viem encodeFunctionData', () => {
    const abi = parseAbi([
      'function transfer(address to, uint256 amount)',
      'function submit((address maker, address[] recipients, (uint256 amount, uint64 deadline) terms) order)',
    ]);
    const transferArgs = coerceParams(abi[0].inputs, [lower, '1000']);
    expect(encodeFunctionData({ abi, functionName: 'transfer', args: transferArgs as never })).toMatch(
      /^0xa9059cbb/,
    );
    const submitArgs = coerceParams(abi[1].inputs, [
      { maker: lower, recipients: [lower], terms: { amount: 1, deadline: 2 } },
    ]);
    expect(encodeFunctionData({ abi, functionName: 'submit', args: submitArgs as never })).toMatch(/^0x/);
  });
});
