import { InternalRpcError, RpcRequestError } from 'viem';
import { describe, expect, it } from 'vitest';
import { JsonRpcError, RpcTransportError } from '../../platform/networks/keep-alive-transport.ts';
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
    // geth's and anvil's ErrFeeCapTooLow: the base fee rose above the max fee (re-priced, not failed).
    [
      'max fee per gas less than block base fee: address 0xabc, maxFeePerGas: 1 baseFee: 875000000',
      'feeCapTooLow',
    ],
    ['fee cap less than block base fee', 'feeCapTooLow'],
    // geth's ErrTxPoolOverflow: nothing taken, to be tried again (not a refusal for good).
    ['txpool is full', 'poolFull'],
    ['Transaction pool is full', 'poolFull'],
    ['insufficient funds for gas * price + value', 'insufficientFunds'],
    ['node request failed: connect ECONNREFUSED 127.0.0.1:8545', 'unreachable'],
    // A proxy's words for a node that did not answer it: the node may have the transaction.
    ['upstream request timeout', 'unanswered'],
    ['context deadline exceeded', 'unanswered'],
    ['socket hang up', 'unanswered'],
    ['upstream: network is unreachable', 'unreachable'],
    ['intrinsic gas too low', 'rejected'],
    // Nethermind (its AcceptTxResult names, as it answers them).
    ['AlreadyKnown', 'accepted'],
    ['OldNonce, Current nonce: 29, nonce of rejected tx: 28', 'nonceTooLow'],
    ['NonceGap, Future nonce. Expected nonce: 62', 'nonceTooHigh'],
    ['NonceTooFarInFuture', 'nonceTooHigh'],
    [
      'FeeTooLow, MaxFeePerGas too low. MaxFeePerGas: 1, BaseFee: 7, MaxPriorityFeePerGas:1, Block number: 9',
      'underpriced',
    ],
    ['FeeTooLowToCompete', 'underpriced'],
    ['InsufficientFunds, Account balance: 0, cumulative cost: 21000', 'insufficientFunds'],
    ['GasLimitExceeded, Gas limit: 30000000, gas limit of rejected tx: 40000000', 'rejected'],
    // Besu.
    ['Known transaction', 'accepted'],
    ['Replacement transaction underpriced', 'underpriced'],
    ['Gas price below configured minimum gas price', 'underpriced'],
    ['Upfront cost exceeds account balance', 'insufficientFunds'],
    ['Intrinsic gas exceeds gas limit', 'rejected'],
    // OpenEthereum.
    ['Transaction with the same hash was already imported.', 'accepted'],
    ['Transaction nonce is too low. Try incrementing the nonce.', 'nonceTooLow'],
    [
      "Transaction gas price is too low. It does not satisfy your node's minimal gas price (minimal: 1 got: 0). Try increasing the gas price.",
      'underpriced',
    ],
    [
      'Transaction gas price 5 wei is too low. There is another transaction with same nonce in the queue. Try increasing the gas price or incrementing the nonce.',
      'underpriced',
    ],
    [
      'Insufficient funds. The account you tried to send transaction from does not have enough funds. Required 1 and got: 0.',
      'insufficientFunds',
    ],
    // Hosted providers over their rate.
    ['Your app has exceeded its compute units per second capacity', 'rateLimited'],
    ['project ID request rate exceeded', 'rateLimited'],
    ['Too Many Requests', 'rateLimited'],
    // Moonbeam, Arbitrum.
    ['Pool(AlreadyImported)', 'accepted'],
    ['Pool(Stale)', 'nonceTooLow'],
    ['not enough funds for gas', 'insufficientFunds'],
  ])('reads "%s" as %s', (details, kind) => {
    expect(classifyBroadcastError(nodeError(details)).kind).toBe(kind);
  });

  it('reads the rate-limit codes of hosted providers as rateLimited, whatever the words', () => {
    for (const code of [429, -32005, -32007]) {
      const error = new Error('send failed', { cause: new JsonRpcError({ code, message: 'slow down' }) });
      expect(classifyBroadcastError(error)).toEqual({ kind: 'rateLimited', message: 'slow down' });
    }
    // A plain HTTP 429 (no JSON-RPC body) is a rate limit too, not a node that is away.
    const plain = new RpcTransportError('node answered HTTP 429 with a body that is not JSON-RPC', {
      httpStatus: 429,
    });
    expect(classifyBroadcastError(plain)).toEqual({ kind: 'rateLimited', message: 'HTTP 429' });
  });

  it('reads a broadcast that went out unanswered as unanswered, one that reached no node as unreachable', () => {
    const wrapped = (cause: Error) => new Error('send failed', { cause });
    for (const failure of [
      new RpcTransportError('node did not answer within 10000 ms', { maybeDelivered: true, timedOut: true }),
      new RpcTransportError('node request failed: the server closed the connection', {
        maybeDelivered: true,
        timedOut: false,
      }),
      new RpcTransportError('node answered HTTP 502 with a body that is not JSON-RPC', { httpStatus: 502 }),
    ]) {
      expect(classifyBroadcastError(wrapped(failure)).kind, failure.message).toBe('unanswered');
    }
    for (const failure of [
      new RpcTransportError('node request failed: connect ECONNREFUSED', {
        maybeDelivered: false,
        timedOut: false,
      }),
      new RpcTransportError('node answered HTTP 401 with a body that is not JSON-RPC', { httpStatus: 401 }),
      new RpcTransportError('node answered HTTP 404 with a body that is not JSON-RPC', { httpStatus: 404 }),
    ]) {
      expect(classifyBroadcastError(wrapped(failure)).kind, failure.message).toBe('unreachable');
    }
    expect(
      classifyBroadcastError(
        wrapped(
          new RpcTransportError('node request failed: connect ECONNREFUSED', {
            maybeDelivered: false,
            timedOut: false,
          }),
        ),
      ),
    ).toMatchObject({ message: 'the node could not be reached' });
  });

  it('keeps the node message of a rejection, shortened', () => {
    const outcome = classifyBroadcastError(nodeError(`exceeds block gas limit ${'x'.repeat(900)}`));
    expect(outcome).toMatchObject({ kind: 'rejected' });
    expect((outcome as { message: string }).message).toMatch(/^exceeds block gas limit x+$/);
    expect((outcome as { message: string }).message.length).toBe(500);
  });
});
