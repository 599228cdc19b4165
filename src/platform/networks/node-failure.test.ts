import { describe, expect, it } from 'vitest';
import { JsonRpcError, RpcTransportError } from './keep-alive-transport.ts';
import {
  executionFailureMessage,
  isMethodUnsupported,
  isNodeTransportFailure,
  isRateLimited,
  nodeRpcError,
  transportFailureWords,
} from './node-failure.ts';

const answered = (error: { code: number; message: string; data?: unknown }) =>
  new Error('the call failed', { cause: new JsonRpcError(error) });

describe('executionFailureMessage', () => {
  // Answers as the clients' issue trackers and the execution-apis tests quote them.
  it.each([
    ['geth, a revert with data', { code: 3, message: 'execution reverted: user error', data: '0x08c379a0' }],
    ['geth, out of gas', { code: -32000, message: 'out of gas' }],
    ['geth, an invalid opcode', { code: -32000, message: 'invalid opcode: INVALID' }],
    ['anvil, a halt', { code: -32603, message: 'EVM error OutOfGas' }],
    ['Besu', { code: -32000, message: 'Execution reverted', data: '0x' }],
    ['Nethermind 2025, before code 3', { code: -32000, message: 'execution reverted', data: '0x01' }],
    ['Nethermind, code 3', { code: 3, message: 'execution reverted: revert', data: '0x' }],
    ['Nethermind, estimateGas', { code: -32015, message: 'revert' }],
  ])('takes %s for the EVM failing the call, with the node message', (_, error) => {
    expect(executionFailureMessage(answered(error))).toBe(error.message);
  });

  it('takes code 3 and -32015 for an EVM failure whatever the wording', () => {
    expect(executionFailureMessage(answered({ code: 3, message: 'something new' }))).toBe('something new');
    expect(executionFailureMessage(answered({ code: -32015, message: 'halted' }))).toBe('halted');
  });

  it('reads what happened from the data of a Nethermind -32015 "VM execution error."', () => {
    const vmError = (data: unknown) => answered({ code: -32015, message: 'VM execution error.', data });
    expect(executionFailureMessage(vmError('revert: UniswapV2Router: EXPIRED'))).toBe(
      'revert: UniswapV2Router: EXPIRED',
    );
    expect(executionFailureMessage(vmError('Reverted 0x7a933234'))).toBe('Reverted 0x7a933234');
    expect(executionFailureMessage(vmError('OutOfGas'))).toBe('OutOfGas');
    // Hex, empty or not text: the data is revert data, not words; the message stands.
    for (const data of ['0x7a933234', '0x', '', 42, undefined]) {
      expect(executionFailureMessage(vmError(data))).toBe('VM execution error.');
    }
  });

  it("does not take the node's own failures for the EVM's", () => {
    for (const error of [
      { code: -32005, message: 'limit exceeded' },
      { code: -32000, message: 'header not found' },
      { code: -32601, message: 'the method eth_call does not exist/is not available' },
      { code: -32000, message: 'missing trie node 1e8c…' },
    ]) {
      expect(executionFailureMessage(answered(error))).toBeUndefined();
    }
    expect(executionFailureMessage(new RpcTransportError('connection refused'))).toBeUndefined();
    expect(executionFailureMessage(new Error('execution reverted'))).toBeUndefined();
  });
});

describe('nodeRpcError and isNodeTransportFailure', () => {
  it('find the node answer, or its absence, along the cause chain', () => {
    const error = answered({ code: -32015, message: 'VM execution error.', data: 'revert' });
    expect(nodeRpcError(error)).toMatchObject({ code: -32015, data: 'revert' });
    expect(isNodeTransportFailure(error)).toBe(false);
    const away = new Error('outer', { cause: new RpcTransportError('timeout') });
    expect(nodeRpcError(away)).toBeUndefined();
    expect(isNodeTransportFailure(away)).toBe(true);
  });
});

describe('isMethodUnsupported', () => {
  it('takes -32601, -32004 and the words for a missing method, and nothing else', () => {
    for (const error of [
      { code: -32601, message: 'Method not found' },
      { code: -32004, message: 'Method not supported' },
      { code: -32000, message: 'the method eth_getBlockReceipts does not exist/is not available' },
      { code: -32603, message: 'unsupported method: eth_getBlockReceipts' },
    ]) {
      expect(isMethodUnsupported(answered(error)), error.message).toBe(true);
    }
    for (const error of [
      { code: -32005, message: 'limit exceeded' },
      { code: -32000, message: 'header not found' },
      { code: 429, message: 'Too Many Requests' },
    ]) {
      expect(isMethodUnsupported(answered(error)), error.message).toBe(false);
    }
    expect(isMethodUnsupported(new RpcTransportError('node did not answer within 10000 ms'))).toBe(false);
  });
});

describe('transportFailureWords', () => {
  it('says what the HTTP answer that was not JSON-RPC points to, and "did not answer" without one', () => {
    const answeredHttp = (httpStatus: number) =>
      new Error('outer', { cause: new RpcTransportError('node answered', { httpStatus }) });
    expect(transportFailureWords(answeredHttp(401))).toBe(
      'refused the request (HTTP 401): check the key in its RPC URL',
    );
    expect(transportFailureWords(answeredHttp(404))).toBe('answered HTTP 404: check its RPC URL');
    expect(transportFailureWords(answeredHttp(502))).toBe('answered HTTP 502: its server failed');
    expect(transportFailureWords(answeredHttp(302))).toBe('answered HTTP 302, not JSON-RPC');
    expect(transportFailureWords(new Error('TimeoutError'))).toBe('did not answer in time');
    expect(transportFailureWords(new RpcTransportError('node answered eth_call with something else'))).toBe(
      'answered something that is not JSON-RPC',
    );
    expect(
      transportFailureWords(
        new RpcTransportError('node did not answer', { timedOut: true, maybeDelivered: true }),
      ),
    ).toBe('did not answer in time');
    expect(
      transportFailureWords(
        new Error('outer', {
          cause: new RpcTransportError('node request failed', { timedOut: false, maybeDelivered: false }),
        }),
      ),
    ).toBe('could not be reached');
    expect(
      transportFailureWords(
        new RpcTransportError('node request failed', { timedOut: false, maybeDelivered: true }),
      ),
    ).toBe('dropped the connection before answering');
  });
});

describe('isRateLimited', () => {
  it("takes the providers' codes and words, and a plain HTTP 429, from the node only", () => {
    for (const error of [
      { code: 429, message: 'Your app has exceeded its compute units per second capacity' },
      { code: -32005, message: 'limit exceeded' },
      { code: -32007, message: '50/second request limit reached - reduce calls per second' },
      { code: -32000, message: 'project ID request rate exceeded' },
      { code: -32603, message: 'Too Many Requests' },
    ]) {
      expect(isRateLimited(answered(error)), error.message).toBe(true);
    }
    expect(isRateLimited(new RpcTransportError('node answered HTTP 429', { httpStatus: 429 }))).toBe(true);
    // HTTP 429 with a JSON-RPC error in the provider's own code and words.
    expect(isRateLimited(new JsonRpcError({ code: -32000, message: 'please slow down' }, 429))).toBe(true);
    expect(isRateLimited(new JsonRpcError({ code: -32000, message: 'please slow down' }, 200))).toBe(false);
    // The transaction's own limits, and errors that are not the node's.
    for (const error of [
      { code: -32000, message: 'gas limit reached' },
      { code: -32000, message: 'exceeds block gas limit' },
      { code: -32000, message: 'GasLimitExceeded, Gas limit: 30000000, gas limit of rejected tx: 40000000' },
    ]) {
      expect(isRateLimited(answered(error)), error.message).toBe(false);
    }
    expect(isRateLimited(new Error('Rate limit exceeded, retry in 1 minute'))).toBe(false);
    expect(isRateLimited(new RpcTransportError('node answered HTTP 503', { httpStatus: 503 }))).toBe(false);
  });
});
