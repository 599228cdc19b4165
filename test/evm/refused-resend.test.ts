import { setTimeout as sleep } from 'node:timers/promises';
import { createPublicClient, type Hex, http, keccak256 } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcCall } from '../support/anvil.ts';
import { apiClient, waitForFinalStatus } from '../support/api-client.ts';
import { type RelayedService, startRelayedService } from '../support/relayed-service.ts';

// A node that took a transaction and lost it (a restart that dropped its pool, a failover to another
// node) and then refuses the same bytes in words the engine does not know. The look at the chain's
// nonces used to fail such a record on the first refusal (ERROR_CHAIN_LOST, its nonce to the gap filler),
// so a node that refused it in passing cost a live transaction. Now the record keeps its nonce until the
// node has refused it for CHAINGATE_REFUSED_FAIL_AFTER_SECONDS, and only then is failed and its nonce
// filled, so the sender's later transactions still go through.
const FAIL_AFTER_SECONDS = 20;
const recipient = '0x000000000000000000000000000000000000beef';
/** Words no node class of the engine matches. */
const UNKNOWN_REFUSAL = 'transaction rejected by local policy';

/** `GET /metrics` as a map from series (name and labels, as printed) to value. */
async function metricValues(serviceUrl: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${serviceUrl}/metrics`)).text();
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(\S+) (\S+)$/.exec(line);
    if (match && !line.startsWith('#')) values.set(match[1] as string, Number(match[2]));
  }
  return values;
}

/** Raw transactions the relay said it took without giving them to anvil: how it refuses each later. */
const lost = new Map<Hex, { refuseForMs: number; firstRefusal?: number; refusals: number }>();
let loseNext: number | undefined;

let stack: RelayedService;
beforeAll(async () => {
  stack = await startRelayedService(
    async (item, forward) => {
      if (item.method !== 'eth_sendRawTransaction') return forward(item);
      const raw = (item.params as Hex[])[0] as Hex;
      const refusing = lost.get(raw);
      if (refusing) {
        refusing.firstRefusal ??= Date.now();
        if (Date.now() - refusing.firstRefusal >= refusing.refuseForMs) return forward(item);
        refusing.refusals++;
        return { jsonrpc: '2.0', id: item.id, error: { code: -32000, message: UNKNOWN_REFUSAL } };
      }
      if (loseNext === undefined) return forward(item);
      lost.set(raw, { refuseForMs: loseNext, refusals: 0 });
      loseNext = undefined;
      return { jsonrpc: '2.0', id: item.id, result: keccak256(raw) };
    },
    { env: { CHAINGATE_REFUSED_FAIL_AFTER_SECONDS: String(FAIL_AFTER_SECONDS) } },
  );
  // The engine's first pass after a start gives the node every stored transaction; the tests count what
  // the looks at the chain's nonces do afterwards.
  await sleep(2_000);
});
afterAll(() => stack?.close());

describe('a stored transaction the node refuses again in unknown words', () => {
  const setUp = () => {
    const { service, anvil } = stack;
    const call = apiClient(service.url, service.auth);
    const sender = service.credentials.sender as `0x${string}`;
    const chain = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
    const transfer = (value: string) =>
      call('POST', '/core/v1/evm/chain/transfer', { sender, recipient, blockchainNetwork: 31337, value });
    const rawOf = (txHash: string) => [...lost.keys()].find((raw) => keccak256(raw) === txHash);
    const refusalsOf = (txHash: string) => lost.get(rawOf(txHash) as Hex)?.refusals ?? 0;
    return { call, sender, chain, transfer, rawOf, refusalsOf };
  };

  it('keeps its nonce while the node refuses it for a while, and is mined once the node takes it', {
    timeout: 90_000,
  }, async () => {
    const { call, sender, chain, transfer, refusalsOf } = setUp();
    const balanceBefore = await chain.getBalance({ address: recipient });
    // Refused for 6 s from its first re-send: one or two of the engine's looks (every 5 s on the devnet).
    loseNext = 6_000;
    const sent = await transfer('7001');
    expect(sent.status, sent.text).toBe(201);
    const final = await waitForFinalStatus(call, sent.body.txHash, 31337, 60_000);
    // Before: `error` / ERROR_CHAIN_LOST at the first refusal, and its nonce went to a filler.
    expect(final.status).toBe('confirmed');
    expect(refusalsOf(sent.body.txHash)).toBeGreaterThanOrEqual(1);
    expect(await chain.getBalance({ address: recipient })).toBe(balanceBefore + 7001n);
    expect(await chain.getTransactionCount({ address: sender })).toBe(sent.body.nonce + 1);
  });

  it('is failed once the node has refused it for the set time, and the sends after it go through', {
    timeout: 90_000,
  }, async () => {
    const { call, sender, chain, transfer, rawOf, refusalsOf } = setUp();
    const balanceBefore = await chain.getBalance({ address: recipient });
    // Two in a row that the node refuses for good (as a restored state that lost the sender's funds
    // refuses them all), then one it takes, which waits on chain behind them.
    loseNext = Number.POSITIVE_INFINITY;
    const refused = await transfer('8001');
    expect(refused.status, refused.text).toBe(201);
    loseNext = Number.POSITIVE_INFINITY;
    const refusedToo = await transfer('8002');
    expect(refusedToo.status, refusedToo.text).toBe(201);
    const next = await transfer('8003');
    expect(next.status, next.text).toBe(201);
    expect([refusedToo.body.nonce, next.body.nonce]).toEqual([
      refused.body.nonce + 1,
      refused.body.nonce + 2,
    ]);
    // While the node refuses them, the engine's gauges say so (read from the store on a scrape).
    while ((lost.get(rawOf(refusedToo.body.txHash) as Hex)?.refusals ?? 0) < 1) await sleep(100);
    const gauges = await metricValues(stack.service.url);
    expect(gauges.get('chaingate_evm_refused_transactions{chain_id="31337",state="inserted"}')).toBe(2);
    expect(gauges.get('chaingate_evm_open_transactions{chain_id="31337",state="inserted"}')).toBe(3);
    expect(
      gauges.get('chaingate_evm_oldest_open_transaction_seconds{chain_id="31337",state="inserted"}'),
    ).toBeGreaterThan(0);
    const final = await waitForFinalStatus(call, refused.body.txHash, 31337, 75_000);
    const failedAt = Date.now();
    expect(final.status).toBe('error');
    expect(final.errorInfo.code).toBe('ERROR_CHAIN_LOST');
    expect(final.errorInfo.message).toContain(UNKNOWN_REFUSAL);
    // Given again and refused on more than one look before it was failed (before: failed at the first).
    expect(refusalsOf(refused.body.txHash)).toBeGreaterThanOrEqual(2);
    // The second was given again on the same looks, not only once the first was failed: its time ran
    // alongside, so the two are failed together rather than one window after the other.
    expect(lost.get(rawOf(refusedToo.body.txHash) as Hex)?.firstRefusal).toBeLessThan(failedAt);
    expect(refusalsOf(refusedToo.body.txHash)).toBeGreaterThanOrEqual(2);
    const finalToo = await waitForFinalStatus(call, refusedToo.body.txHash, 31337, 30_000);
    expect(finalToo.errorInfo?.code).toBe('ERROR_CHAIN_LOST');
    // Their nonces were filled (zero-value self-transfers), so the third was mined.
    expect((await waitForFinalStatus(call, next.body.txHash, 31337, 30_000)).status).toBe('confirmed');
    await sleep(1_000);
    expect(await chain.getBalance({ address: recipient })).toBe(balanceBefore + 8003n);
    expect(await chain.getTransactionCount({ address: sender })).toBe(next.body.nonce + 1);
    // Nothing open is left, so nothing is counted as refused.
    const after = await metricValues(stack.service.url);
    expect(
      after.get('chaingate_evm_refused_transactions{chain_id="31337",state="inserted"}'),
    ).toBeUndefined();
  });

  // The node refused it for good, but another node had its bytes and mines them after it was failed (here:
  // given to anvil directly, before the filler of its nonce goes out). The store must not go on saying
  // `error` for a mined transaction: the block scan finds its hash, and the filler is the one replaced.
  it('is confirmed after all when its bytes are mined after it was failed', { timeout: 90_000 }, async () => {
    const { call, sender, chain, transfer, rawOf } = setUp();
    const balanceBefore = await chain.getBalance({ address: recipient });
    loseNext = Number.POSITIVE_INFINITY;
    const refused = await transfer('9001');
    expect(refused.status, refused.text).toBe(201);
    const next = await transfer('9002');
    expect(next.status, next.text).toBe(201);
    expect((await waitForFinalStatus(call, refused.body.txHash, 31337, 75_000)).status).toBe('error');
    await rpcCall(stack.anvil.rpcUrl, 'eth_sendRawTransaction', [rawOf(refused.body.txHash)]);
    const final = await waitForFinalStatus(call, next.body.txHash, 31337, 30_000);
    expect(final.status).toBe('confirmed');
    await sleep(1_000);
    const status = await call(
      'GET',
      `/core/v1/evm/info/transaction/${refused.body.txHash}/status?network=31337`,
    );
    expect(status.body).toMatchObject({ status: 'confirmed', errorInfo: null });
    expect(await chain.getBalance({ address: recipient })).toBe(balanceBefore + 9001n + 9002n);
    expect(await chain.getTransactionCount({ address: sender })).toBe(next.body.nonce + 1);
  });
});
