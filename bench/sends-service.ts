import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Api, finalStatuses, statusOf } from './api.ts';
import { checkReceipts, isContiguousFrom, nonceOf, waitForMinedNonce } from './chain.ts';
import type { CpuUse } from './cpu.ts';
import type { HttpClient } from './http-client.ts';
import { failureReason, type LoadResult, runLoad } from './load.ts';
import { recipients, type SendBench, sendTimeoutMs } from './sends.ts';

type Accepted = { txHash: string; nonce: number };

/**
 * Polls the status endpoint in nonce order, a window at a time, only past the prefix already final:
 * the polling itself stays light so it does not slow down what it measures. Resolves with the time
 * all were final (undefined on timeout) and the last status of each hash.
 */
async function waitForAllFinal(
  api: Api,
  accepted: Accepted[],
  timeoutMs: number,
): Promise<{ at: number | undefined; statuses: Map<string, string> }> {
  const ordered = [...accepted].sort((a, b) => a.nonce - b.nonce);
  const statuses = new Map<string, string>();
  const deadline = performance.now() + timeoutMs;
  let first = 0;
  while (first < ordered.length) {
    if (performance.now() > deadline) return { at: undefined, statuses };
    const window = ordered
      .slice(first, first + 32)
      .filter((a) => !finalStatuses.includes(statuses.get(a.txHash) ?? ''));
    await Promise.all(
      window.map(async (a) => {
        try {
          statuses.set(a.txHash, (await statusOf(api, a.txHash)).status);
        } catch (error) {
          // Kept as this hash's status so the report shows it rather than the bench dying on it.
          statuses.set(a.txHash, `unreadable (${(error as Error).message.slice(0, 160)})`);
        }
      }),
    );
    while (first < ordered.length && finalStatuses.includes(statuses.get(ordered[first]?.txHash ?? '') ?? ''))
      first++;
    if (first < ordered.length && window.some((a) => !finalStatuses.includes(statuses.get(a.txHash) ?? ''))) {
      await sleep(100);
    }
  }
  return { at: performance.now(), statuses };
}

/**
 * `count` ERC-20 transfers from the first-start sender through `POST /transact/mutable`, `concurrency`
 * in flight; then the chain and the status endpoint are watched until everything is mined/confirmed,
 * and the nonces are checked for gaps and duplicates on both sides (answers and chain).
 */
export async function benchServiceSends(options: {
  http: HttpClient;
  api: Api;
  serviceUrl: string;
  rpcUrl: string;
  token: string;
  sender: string;
  count: number;
  concurrency: number;
  /** Sends made (and mined) before the measured ones, not counted. */
  warmup?: number;
  cpuSnapshot?: () => CpuUse;
}): Promise<SendBench> {
  const { http, api, rpcUrl, sender } = options;
  const url = `${options.serviceUrl}/core/v1/evm/transact/mutable`;
  const bodyOf = (i: number) =>
    JSON.stringify({
      contractAddress: options.token,
      sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [recipients[i % recipients.length], 1],
    });
  let warm: LoadResult | undefined;
  if (options.warmup) {
    // Unmeasured, as the views' warm-up second: the send path's code is compiled and its caches filled
    // before the clock starts, so the numbers are the service's steady state. Mined before going on.
    const before = await nonceOf(http, rpcUrl, sender, 'pending');
    warm = await runLoad({
      concurrency: options.concurrency,
      count: options.warmup,
      ...(options.cpuSnapshot ? { cpuSnapshot: options.cpuSnapshot } : {}),
      task: async (i) => {
        const answer = await http.post(url, bodyOf(i), api.headers);
        return answer.status === 201
          ? { ok: true }
          : { ok: false, reason: failureReason(answer.status, answer.text) };
      },
    });
    await waitForMinedNonce(http, rpcUrl, sender, before + warm.ok, sendTimeoutMs);
    // Everything the warm-up left to do (confirmations, marks) is done before the clock starts.
    await sleep(1_500);
  }
  const startNonce = await nonceOf(http, rpcUrl, sender, 'pending');
  const bodies = Array.from({ length: options.count }, (_, i) => bodyOf(i));
  const accepted: Accepted[] = [];

  const started = performance.now();
  const push = await runLoad({
    concurrency: options.concurrency,
    count: options.count,
    ...(options.cpuSnapshot ? { cpuSnapshot: options.cpuSnapshot } : {}),
    task: async (i) => {
      const answer = await http.post(url, bodies[i] as string, api.headers);
      if (answer.status !== 201) return { ok: false, reason: failureReason(answer.status, answer.text) };
      accepted.push(JSON.parse(answer.text) as Accepted);
      return { ok: true };
    },
  });
  const [minedAt, final] = await Promise.all([
    waitForMinedNonce(http, rpcUrl, sender, startNonce + accepted.length, sendTimeoutMs),
    waitForAllFinal(api, accepted, sendTimeoutMs),
  ]);
  const finalNonce = await nonceOf(http, rpcUrl, sender);
  const hashes = accepted.map((a) => a.txHash);
  const receipts = await checkReceipts(http, rpcUrl, hashes);
  const nonces = accepted.map((a) => Number(a.nonce));
  const statusCounts = new Map<string, number>();
  for (const a of accepted) {
    const status = final.statuses.get(a.txHash) ?? 'not polled';
    statusCounts.set(status, (statusCounts.get(status) ?? 0) + 1);
  }
  return {
    push,
    ...(warm ? { warmup: warm } : {}),
    minedMs: minedAt === undefined ? undefined : minedAt - started,
    confirmedMs: final.at === undefined ? undefined : final.at - started,
    statusCounts,
    checks: [
      {
        name: 'all 2,000 answered 201',
        ok: push.ok === options.count,
        detail: `${push.ok}/${options.count}`,
      },
      {
        name: 'returned nonces unique',
        ok: new Set(nonces).size === nonces.length,
        detail: `${new Set(nonces).size} distinct of ${nonces.length}`,
      },
      {
        name: 'returned nonces contiguous from the start nonce',
        ok: isContiguousFrom(nonces, startNonce),
        detail: `start ${startNonce}, min ${Math.min(...nonces)}, max ${Math.max(...nonces)}`,
      },
      {
        name: 'returned hashes unique',
        ok: new Set(hashes).size === hashes.length,
        detail: `${new Set(hashes).size} distinct`,
      },
      {
        name: 'chain: final nonce = start + 2,000',
        ok: finalNonce === startNonce + options.count,
        detail: `${finalNonce} = ${startNonce} + ${finalNonce - startNonce}`,
      },
      {
        name: 'chain: every hash has a successful receipt',
        ok: receipts.successful === hashes.length && hashes.length === options.count,
        detail: `${receipts.successful} ok, ${receipts.reverted.length} reverted, ${receipts.missing.length} missing`,
      },
      {
        name: 'status endpoint: all confirmed',
        ok: (statusCounts.get('confirmed') ?? 0) === options.count,
        detail: [...statusCounts].map(([status, n]) => `${status} ${n}`).join(', '),
      },
    ],
  };
}
