import { setTimeout as sleep } from 'node:timers/promises';
import { createPublicClient, type Hex, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, waitForFinalStatus } from '../support/api-client.ts';
import { HttpRefusal } from '../support/json-rpc-server.ts';
import { type RelayedService, startRelayedService } from '../support/relayed-service.ts';

/**
 * A broadcast that went out and got no answer may still be in the node's pool. It used to be failed
 * (503, record `error`, nonce freed): a node that had taken it then mined it anyway, the store said
 * `error` for a mined transaction, and a client that sent again paid twice. Now the send answers 201, the
 * record stays open, and the engine gives the node the same bytes until the chain has them. A broadcast
 * that reached no node (an HTTP refusal) still answers 503 and frees its nonce. A "nonce too low" that the
 * node cannot then explain (its lookup of the hash fails) is kept the same way, not signed again.
 */
const RPC_TIMEOUT_MS = 1_000;
const recipient = '0x000000000000000000000000000000000000beef';

/** What the relay does with the next raw transaction, once each. */
type Trick =
  /** Gives it to anvil, answers only after the service's deadline. */
  | 'answerLate'
  /** Drops it, and answers nothing until after the deadline. */
  | 'swallow'
  /** Refuses the whole request with HTTP 401 text, as a wrong key does. */
  | 'refuse'
  /**
   * Gives it to anvil and answers "nonce too low" (a second delivery's answer, as behind a load balancer
   * that retried), and the lookup of the hash that follows fails with HTTP 502.
   */
  | 'tookItSaysTooLow';
const tricks: Trick[] = [];
let failingLookups = 0;
/** Until then every raw transaction is refused with geth's "txpool is full", and not given to anvil. */
let poolFullUntil = 0;

let stack: RelayedService;
beforeAll(async () => {
  stack = await startRelayedService(
    async (item, forward) => {
      if (item.method === 'eth_sendRawTransaction' && Date.now() < poolFullUntil)
        return { jsonrpc: '2.0', id: item.id, error: { code: -32000, message: 'txpool is full' } };
      const trick = item.method === 'eth_sendRawTransaction' ? tricks.shift() : undefined;
      if (trick === 'refuse') throw new HttpRefusal(401, 'invalid project id\n');
      if (trick === 'tookItSaysTooLow') {
        await forward(item);
        failingLookups++;
        return { jsonrpc: '2.0', id: item.id, error: { code: -32000, message: 'nonce too low' } };
      }
      if (item.method === 'eth_getTransactionByHash' && failingLookups > 0) {
        failingLookups--;
        throw new HttpRefusal(502, 'bad gateway');
      }
      if (trick === 'answerLate') {
        const answer = await forward(item);
        await sleep(RPC_TIMEOUT_MS + 500);
        return answer;
      }
      if (trick === 'swallow') {
        await sleep(RPC_TIMEOUT_MS + 500);
        return { jsonrpc: '2.0', id: item.id, error: { code: -32000, message: 'too late to matter' } };
      }
      return forward(item);
    },
    { network: { rpcTimeoutMs: RPC_TIMEOUT_MS } },
  );
});
afterAll(() => stack?.close());

describe('a broadcast without an answer', () => {
  const setUp = () => {
    const { service, anvil } = stack;
    const call = apiClient(service.url, service.auth);
    const sender = service.credentials.sender as `0x${string}`;
    const chain = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
    // Each a different value: identical sends within one block share one estimate.
    const transfer = (value: string, myReference: string) =>
      call('POST', '/core/v1/evm/chain/transfer', {
        sender,
        recipient,
        blockchainNetwork: 31337,
        value,
        myReference,
      });
    const recordOf = async (reference: string) => {
      const info = (await call('GET', `/core/v1/evm/info/transaction/reference/${reference}`)).body.info;
      expect(info).toHaveLength(1);
      return info[0];
    };
    return { call, sender, chain, transfer, recordOf };
  };

  it('answers 201 when the node took it but its answer was lost, and the record follows the chain', {
    timeout: 60_000,
  }, async () => {
    const { call, sender, chain, transfer, recordOf } = setUp();
    const balanceBefore = await chain.getBalance({ address: recipient });
    tricks.push('answerLate');
    const late = await transfer('1001', 'late');
    expect(late.status, late.text).toBe(201);
    // The node had it: mined once, and the store says so (before: `error`, while mined).
    expect((await waitForFinalStatus(call, late.body.txHash)).status).toBe('confirmed');
    expect(await recordOf('late')).toMatchObject({ status: 'confirmed', txHash: late.body.txHash });
    // Its nonce stays its own: the next send takes the one after.
    const next = await transfer('1002', 'afterLate');
    expect(next.status, next.text).toBe(201);
    expect(next.body.nonce).toBe(late.body.nonce + 1);
    expect((await waitForFinalStatus(call, next.body.txHash)).status).toBe('confirmed');
    expect(await chain.getBalance({ address: recipient })).toBe(balanceBefore + 1001n + 1002n);
    expect(await chain.getTransactionCount({ address: sender })).toBe(next.body.nonce + 1);
  });

  it('answers 201 when the request was lost on the way, and the engine gives the node the same bytes', {
    timeout: 60_000,
  }, async () => {
    const { call, sender, chain, transfer, recordOf } = setUp();
    const balanceBefore = await chain.getBalance({ address: recipient });
    tricks.push('swallow');
    const lost = await transfer('2001', 'swallowed');
    expect(lost.status, lost.text).toBe(201);
    // Nothing reached anvil; the record is open, and shown as inserted.
    expect(
      await chain.request({ method: 'eth_getTransactionByHash', params: [lost.body.txHash as Hex] }),
    ).toBeNull();
    expect((await recordOf('swallowed')).status).toBe('inserted');
    // A send meanwhile takes the next nonce; it waits on chain for the one before.
    const next = await transfer('2002', 'afterSwallowed');
    expect(next.status, next.text).toBe(201);
    expect(next.body.nonce).toBe(lost.body.nonce + 1);
    // The engine re-sends the stored bytes (same hash): both are mined, each once.
    expect((await waitForFinalStatus(call, lost.body.txHash)).status).toBe('confirmed');
    expect((await waitForFinalStatus(call, next.body.txHash)).status).toBe('confirmed');
    expect(await chain.getBalance({ address: recipient })).toBe(balanceBefore + 2001n + 2002n);
    expect(await chain.getTransactionCount({ address: sender })).toBe(next.body.nonce + 1);
  });

  it('answers 503 when the broadcast reached no node, sends nothing, and re-uses the nonce', {
    timeout: 60_000,
  }, async () => {
    const { call, sender, chain, transfer, recordOf } = setUp();
    const balanceBefore = await chain.getBalance({ address: recipient });
    const nonceBefore = await chain.getTransactionCount({ address: sender });
    tricks.push('refuse');
    const refused = await transfer('3001', 'refused');
    expect(refused.status, refused.text).toBe(503);
    expect(refused.body).toMatchObject({ code: 'ERROR_NODE_UNREACHABLE' });
    expect(refused.body.message).toMatch(/refused the request \(HTTP 401\)/);
    const record = await recordOf('refused');
    expect(record.status).toBe('error');
    // Sending again is safe: the retry takes the refused send's nonce, and only it is mined.
    const retry = await transfer('3002', 'retried');
    expect(retry.status, retry.text).toBe(201);
    expect(retry.body.nonce).toBe(nonceBefore);
    expect((await waitForFinalStatus(call, retry.body.txHash)).status).toBe('confirmed');
    await sleep(1_000);
    expect(await chain.getBalance({ address: recipient })).toBe(balanceBefore + 3002n);
    expect(await chain.getTransactionCount({ address: sender })).toBe(nonceBefore + 1);
    expect((await recordOf('refused')).status).toBe('error');
  });

  it('answers 503 when the node’s pool is full, sends nothing, and re-uses the nonce', {
    timeout: 60_000,
  }, async () => {
    const { call, sender, chain, transfer, recordOf } = setUp();
    const nonceBefore = await chain.getTransactionCount({ address: sender });
    poolFullUntil = Date.now() + 60_000;
    const refused = await transfer('5001', 'poolFull').finally(() => {
      poolFullUntil = 0;
    });
    expect(refused.status, refused.text).toBe(503);
    expect(refused.body).toMatchObject({ code: 'CG_ERR_DEPENDENCY' });
    expect(refused.body.message).toContain('txpool is full');
    expect((await recordOf('poolFull')).status).toBe('error');
    const retry = await transfer('5002', 'afterPoolFull');
    expect(retry.status, retry.text).toBe(201);
    expect(retry.body.nonce).toBe(nonceBefore);
    expect((await waitForFinalStatus(call, retry.body.txHash)).status).toBe('confirmed');
  });

  // A kept send (its broadcast unanswered) that the node then refuses for a full pool, for longer than the
  // engine's first looks: before, its look at the chain's nonces took that for a refusal for good and
  // failed it (ERROR_CHAIN_LOST), its nonce to the gap filler.
  it('keeps giving a kept send to a node whose pool is full until it takes it', {
    timeout: 60_000,
  }, async () => {
    const { call, sender, chain, transfer, recordOf } = setUp();
    const balanceBefore = await chain.getBalance({ address: recipient });
    tricks.push('swallow');
    const kept = await transfer('6001', 'keptThroughFullPool');
    expect(kept.status, kept.text).toBe(201);
    poolFullUntil = Date.now() + 12_000;
    expect((await waitForFinalStatus(call, kept.body.txHash, 31337, 50_000)).status).toBe('confirmed');
    expect(await recordOf('keptThroughFullPool')).toMatchObject({ status: 'confirmed' });
    expect(await chain.getBalance({ address: recipient })).toBe(balanceBefore + 6001n);
    expect(await chain.getTransactionCount({ address: sender })).toBe(kept.body.nonce + 1);
  });

  it('keeps a send the node calls "nonce too low" when it cannot say whether its own hash took the nonce', {
    timeout: 60_000,
  }, async () => {
    // Signing it again under the next nonce, as for a nonce someone else took, would send it twice.
    const { call, sender, chain, transfer, recordOf } = setUp();
    const balanceBefore = await chain.getBalance({ address: recipient });
    tricks.push('tookItSaysTooLow');
    const sent = await transfer('4001', 'tooLow');
    expect(sent.status, sent.text).toBe(201);
    expect(failingLookups).toBe(0);
    expect((await waitForFinalStatus(call, sent.body.txHash)).status).toBe('confirmed');
    expect(await recordOf('tooLow')).toMatchObject({ status: 'confirmed', txHash: sent.body.txHash });
    await sleep(1_000);
    expect(await chain.getBalance({ address: recipient })).toBe(balanceBefore + 4001n);
    expect(await chain.getTransactionCount({ address: sender })).toBe(sent.body.nonce + 1);
  });
});
