import { InternalRpcError, RpcRequestError } from 'viem';
import { describe, expect, it } from 'vitest';
import { classifyBroadcastError } from './broadcast-errors.ts';

/** What viem throws for a node's JSON-RPC error answer to eth_sendRawTransaction. */
function nodeError(message: string): Error {
  return new InternalRpcError(
    new RpcRequestError({ body: {}, error: { code: -32000, message }, url: 'http://node' }),
  );
}

describe('classifyBroadcastError', () => {
  it.each([
    ['already known', 'accepted'],
    ['ALREADY_EXISTS: already known', 'accepted'],
    ['nonce too low: next nonce 5, tx nonce 3', 'nonceTooLow'],
    ['Nonce too low', 'nonceTooLow'],
    ['nonce too high: address 0xabc, tx: 9 state: 7', 'nonceTooHigh'],
    ['NONCE_TOO_FAR_IN_FUTURE_FOR_SENDER', 'nonceTooHigh'],
    ['replacement transaction underpriced', 'underpriced'],
    ['insufficient funds for gas * price + value', 'insufficientFunds'],
    ['node request failed: connect ECONNREFUSED 127.0.0.1:8545', 'unreachable'],
    ['intrinsic gas too low', 'rejected'],
  ])('reads "%s" as %s', (details, kind) => {
    expect(classifyBroadcastError(nodeError(details)).kind).toBe(kind);
  });

  it('keeps the node message of a rejection, shortened', () => {
    const outcome = classifyBroadcastError(nodeError(`exceeds block gas limit ${'x'.repeat(900)}`));
    expect(outcome).toMatchObject({ kind: 'rejected' });
    expect((outcome as { message: string }).message).toMatch(/^exceeds block gas limit x+$/);
    expect((outcome as { message: string }).message.length).toBe(500);
  });
});
