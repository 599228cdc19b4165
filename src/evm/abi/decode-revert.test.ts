import { BaseError, ContractFunctionRevertedError, encodeErrorResult, parseAbi, RpcRequestError } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeRevertReason, executionFailureAnswer, revertDataFromError } from './decode-revert.ts';

const builtins = parseAbi(['error Error(string)', 'error Panic(uint256)']);
const custom = parseAbi([
  'error InsufficientBalance(address account, uint256 balance, uint256 needed)',
  'error Named(string why, bool flag)',
  'error Bare()',
]);
const account = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('decodeRevertReason', () => {
  it('decodes Error(string)', () => {
    const data = encodeErrorResult({ abi: builtins, errorName: 'Error', args: ['not enough'] });
    expect(decodeRevertReason([], data)).toEqual({
      reason: 'not enough',
      errorName: 'Error',
      args: ['not enough'],
    });
  });

  it('decodes Panic(uint256) with its meaning', () => {
    const data = encodeErrorResult({ abi: builtins, errorName: 'Panic', args: [0x11n] });
    expect(decodeRevertReason([], data)).toEqual({
      reason: 'panic 0x11 (arithmetic overflow)',
      errorName: 'Panic',
      args: [17],
    });
    const byZero = encodeErrorResult({ abi: builtins, errorName: 'Panic', args: [0x12n] });
    expect(decodeRevertReason([], byZero)?.reason).toBe('panic 0x12 (division or modulo by zero)');
    const assertion = encodeErrorResult({ abi: builtins, errorName: 'Panic', args: [1n] });
    expect(decodeRevertReason([], assertion)?.reason).toBe('panic 0x01 (assertion failed)');
    const odd = encodeErrorResult({ abi: builtins, errorName: 'Panic', args: [0x99n] });
    expect(decodeRevertReason([], odd)?.reason).toBe('panic 0x99');
  });

  it('decodes a custom error from any of the ABIs', () => {
    const data = encodeErrorResult({
      abi: custom,
      errorName: 'InsufficientBalance',
      args: [account, 5n, 2n ** 60n],
    });
    expect(decodeRevertReason([builtins, custom], data)).toEqual({
      reason: `InsufficientBalance(${account}, 5, 1152921504606846976)`,
      errorName: 'InsufficientBalance',
      args: [account, 5, 1152921504606846976n],
    });
  });

  it('quotes string args and handles errors without args', () => {
    const named = encodeErrorResult({ abi: custom, errorName: 'Named', args: ['too "late"', false] });
    expect(decodeRevertReason([custom], named)?.reason).toBe('Named("too \\"late\\"", false)');
    const bare = encodeErrorResult({ abi: custom, errorName: 'Bare' });
    expect(decodeRevertReason([custom], bare)).toEqual({ reason: 'Bare()', errorName: 'Bare', args: [] });
  });

  it('formats array and struct args', () => {
    const abi = parseAbi(['error Many(uint256[] ids, (address who, uint256 n) pos)']);
    const data = encodeErrorResult({
      abi,
      errorName: 'Many',
      args: [[1n, 2n ** 64n], { who: account, n: 3n }],
    });
    expect(decodeRevertReason([abi], data)?.reason).toBe(
      `Many([1, 18446744073709551616], {"who":"${account}","n":3})`,
    );
  });

  it('reports an unknown selector', () => {
    expect(decodeRevertReason([custom], '0x12345678')).toEqual({ reason: 'unknown error 0x12345678' });
    expect(decodeRevertReason([], '0x12345678aabb')).toEqual({ reason: 'unknown error 0x12345678' });
  });

  it('reports a known selector with undecodable args as unknown', () => {
    expect(decodeRevertReason([], '0x08c379a0')).toEqual({ reason: 'unknown error 0x08c379a0' });
  });

  it('returns undefined for no data', () => {
    expect(decodeRevertReason([custom], undefined)).toBeUndefined();
    expect(decodeRevertReason([custom], '0x')).toBeUndefined();
  });
});

describe('revertDataFromError', () => {
  const data = encodeErrorResult({ abi: builtins, errorName: 'Error', args: ['nope'] });

  it('finds raw data on ContractFunctionRevertedError inside a wrapper', () => {
    const reverted = new ContractFunctionRevertedError({ abi: builtins, data, functionName: 'transfer' });
    const wrapper = new BaseError('call failed', { cause: reverted });
    expect(revertDataFromError(wrapper)).toBe(data);
  });

  it('finds data on an RpcRequestError in the cause chain', () => {
    const rpc = new RpcRequestError({
      body: {},
      url: 'http://x',
      error: { code: 3, message: 'execution reverted', data },
    });
    expect(revertDataFromError(new BaseError('outer', { cause: rpc }))).toBe(data);
  });

  it('finds nested JSON-RPC error data', () => {
    expect(revertDataFromError({ error: { code: 3, data } })).toBe(data);
    expect(revertDataFromError({ cause: { data: { data } } })).toBe(data);
    expect(revertDataFromError(Object.assign(new Error('x'), { cause: { error: { data: { data } } } }))).toBe(
      data,
    );
  });

  it('finds the data of a Nethermind "Reverted 0x…" text', () => {
    expect(revertDataFromError({ error: { code: -32015, data: `Reverted ${data}` } })).toBe(data);
    expect(revertDataFromError({ data: 'Reverted 0x' })).toBeUndefined();
    expect(revertDataFromError({ data: `revert: ${data}` })).toBeUndefined();
  });

  it('returns undefined when there is no revert data', () => {
    expect(revertDataFromError(new Error('boom'))).toBeUndefined();
    expect(revertDataFromError({ data: '0x' })).toBeUndefined();
    expect(revertDataFromError({ data: 'not hex' })).toBeUndefined();
    expect(revertDataFromError(undefined)).toBeUndefined();
    expect(revertDataFromError('0xdead')).toBeUndefined();
  });
});

describe('executionFailureAnswer', () => {
  it('answers a revert, with the reason when the node put one in its words', () => {
    expect(executionFailureAnswer('execution reverted')).toBe('execution reverted');
    expect(executionFailureAnswer('revert')).toBe('execution reverted');
    expect(executionFailureAnswer('Execution reverted')).toBe('execution reverted');
    expect(executionFailureAnswer('revert: UniswapV2Router: EXPIRED')).toBe(
      'execution reverted: UniswapV2Router: EXPIRED',
    );
    expect(executionFailureAnswer('execution reverted: nope')).toBe('execution reverted: nope');
  });

  it('leaves out Nethermind\'s bare ": revert" and revert data that did not decode', () => {
    expect(executionFailureAnswer('execution reverted: revert')).toBe('execution reverted');
    expect(executionFailureAnswer('Reverted 0x7a933234')).toBe('execution reverted');
  });

  it('answers another failure with what the node said, escaped and clipped', () => {
    expect(executionFailureAnswer('EVM error OutOfGas')).toBe('execution failed: EVM error OutOfGas');
    expect(executionFailureAnswer('revert: two\nlines')).toBe('execution reverted: two\\u000alines');
    expect(executionFailureAnswer(`invalid opcode ${'x'.repeat(200)}`)).toMatch(/… \(215 chars\)$/);
  });
});
