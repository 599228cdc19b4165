import type { Abi } from 'viem';
import { describe, expect, it } from 'vitest';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { resolveConstructor, resolveFunction } from './resolve-function.ts';

const abi = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [{ type: 'bool' }],
  },
  {
    type: 'function',
    name: 'safeTransferFrom',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'id', type: 'uint256' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'safeTransferFrom',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'id', type: 'uint256' },
      { name: 'data', type: 'bytes' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'pick',
    stateMutability: 'view',
    inputs: [{ name: 'a', type: 'uint256' }],
    outputs: [],
  },
  {
    type: 'function',
    name: 'pick',
    stateMutability: 'view',
    inputs: [{ name: 'a', type: 'address' }],
    outputs: [],
  },
  {
    type: 'function',
    name: 'batch',
    stateMutability: 'nonpayable',
    inputs: [
      {
        name: 'items',
        type: 'tuple[]',
        components: [
          { name: 'to', type: 'address' },
          { name: 'amount', type: 'uint256' },
        ],
      },
    ],
    outputs: [],
  },
  { type: 'event', name: 'Transfer', inputs: [] },
] as const satisfies Abi;

function thrown(fn: () => unknown): ChaingateError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ChaingateError);
    return error as ChaingateError;
  }
  throw new Error('expected a throw');
}

describe('resolveFunction', () => {
  it('finds a function by name', () => {
    expect(resolveFunction(abi, 'transfer', 2).name).toBe('transfer');
  });

  it('returns a lone function whatever the param count, so the count error can name its inputs', () => {
    expect(resolveFunction(abi, 'transfer', 5).name).toBe('transfer');
  });

  it('finds a function by full signature, tolerating whitespace', () => {
    expect(resolveFunction(abi, 'transfer(address,uint256)', 0).name).toBe('transfer');
    expect(resolveFunction(abi, ' transfer( address , uint256 ) ', 0).name).toBe('transfer');
  });

  it('matches tuple types in a signature, with or without the tuple keyword', () => {
    expect(resolveFunction(abi, 'batch((address,uint256)[])', 1).name).toBe('batch');
    expect(resolveFunction(abi, 'batch(tuple(address, uint256)[])', 1).name).toBe('batch');
  });

  it('picks the overload whose input count equals the param count', () => {
    expect(resolveFunction(abi, 'safeTransferFrom', 3).inputs).toHaveLength(3);
    expect(resolveFunction(abi, 'safeTransferFrom', 4).inputs).toHaveLength(4);
  });

  it('picks an overload by signature', () => {
    expect(resolveFunction(abi, 'pick(address)', 1).inputs[0]?.type).toBe('address');
    expect(resolveFunction(abi, 'pick(uint256)', 1).inputs[0]?.type).toBe('uint256');
  });

  it('reports an ambiguous overload with its signatures', () => {
    const error = thrown(() => resolveFunction(abi, 'pick', 1));
    expect(error.code).toBe('CG_ERR_AMBIGUOUS_METHOD');
    expect(error.message).toContain('pick(uint256), pick(address)');
    expect(thrown(() => resolveFunction(abi, 'safeTransferFrom', 2)).code).toBe('CG_ERR_AMBIGUOUS_METHOD');
  });

  it('reports an unknown method with the available names', () => {
    const error = thrown(() => resolveFunction(abi, 'approve', 2));
    expect(error.code).toBe('CG_ERR_UNKNOWN_METHOD');
    expect(error.message).toContain('"approve"');
    expect(error.message).toContain('transfer, safeTransferFrom, pick, batch');
  });

  it('reports an unknown signature and does not match events', () => {
    expect(thrown(() => resolveFunction(abi, 'transfer(address)', 1)).code).toBe('CG_ERR_UNKNOWN_METHOD');
    expect(thrown(() => resolveFunction(abi, 'Transfer', 0)).code).toBe('CG_ERR_UNKNOWN_METHOD');
  });

  it('lists at most 10 names', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({
      type: 'function',
      name: `f${i}`,
      stateMutability: 'view',
      inputs: [],
      outputs: [],
    })) as Abi;
    const error = thrown(() => resolveFunction(many, 'nope', 0));
    expect(error.message).toContain('f9');
    expect(error.message).not.toContain('f10,');
    expect(error.message).toContain('12 in all');
  });

  it('says when the ABI has no functions', () => {
    expect(thrown(() => resolveFunction([], 'x', 0)).message).toContain('no functions');
  });
});

describe('resolveConstructor', () => {
  it('returns the declared constructor', () => {
    const ctor = resolveConstructor([
      { type: 'constructor', stateMutability: 'nonpayable', inputs: [{ name: 'supply', type: 'uint256' }] },
    ]);
    expect(ctor.inputs).toEqual([{ name: 'supply', type: 'uint256' }]);
  });

  it('returns an implicit zero-input constructor when absent', () => {
    expect(resolveConstructor(abi)).toEqual({
      type: 'constructor',
      inputs: [],
      stateMutability: 'nonpayable',
    });
  });
});
