import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Api, finalStatuses, statusOf } from './api.ts';
import { checkReceipts, isContiguousFrom, nonceOf, waitForMinedNonce } from './chain.ts';
import type { CpuUse } from './cpu.ts';
import type { HttpClient } from './http-client.ts';
import { failureReason, type LoadResult, runLoad } from './load.ts';
import { recipients, type SendBench, sendTimeoutMs } from './sends.ts';
import { describeStall } from './stall.ts';

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
  /**
   * Measured rounds of `count` sends, each mined and confirmed before the next (default 1). The one
   * with the median server CPU is the result: the machine's speed moves for tens of seconds at a time,
   * which a single round takes whole.
   */
  rounds?: number;
  cpuSnapshot?: () => CpuUse;
  /** Each send with an Idempotency-Key of its own (`--keyed`): what a client that retries safely pays. */
  keyed?: boolean;
}): Promise<SendBench> {
  const { http, rpcUrl, sender } = options;
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
        const answer = await http.post(url, bodyOf(i), headersOf(options, `warm-${i}`));
        return answer.status === 201
          ? { ok: true }
          : { ok: false, reason: failureReason(answer.status, answer.text) };
      },
    });
    await waitForMinedNonce(http, rpcUrl, sender, before + warm.ok, sendTimeoutMs);
    // Everything the warm-up left to do (confirmations, marks) is done before the clock starts.
    await sleep(1_500);
  }
  const measured: SendBench[] = [];
  for (let round = 0; round < (options.rounds ?? 1); round++) {
    // As after the warm-up: the previous round's confirmations and marks are done first.
    if (round > 0) await sleep(1_500);
    measured.push(await measuredRound(options, url, bodyOf, round));
  }
  const byServerCpu = [...measured].sort(
    (a, b) => (a.push.cpu?.server ?? Number.NaN) - (b.push.cpu?.server ?? Number.NaN),
  );
  const median = byServerCpu[Math.floor((byServerCpu.length - 1) / 2)] as SendBench;
  return {
    ...median,
    ...(warm ? { warmup: warm } : {}),
    rounds: measured.map((round) => round.push),
    stalls: measured.flatMap((round, index) =>
      (round.stalls ?? []).map((stall) => `round ${index + 1}: ${stall}`),
    ),
    // Every round must pass every check.
    checks: median.checks.map((check, index) => ({
      name: check.name,
      ok: measured.every((round) => round.checks[index]?.ok),
      detail: measured.map((round) => round.checks[index]?.detail).join(' · '),
    })),
  };
}

/** The send's headers: the API's, and its own idempotency key when the run is keyed. */
function headersOf(options: { api: Api; keyed?: boolean }, key: string): Record<string, string> {
  return options.keyed ? { ...options.api.headers, 'idempotency-key': `bench-${key}` } : options.api.headers;
}

/** One measured round: `count` sends pushed, then watched until mined and confirmed, then checked. */
async function measuredRound(
  options: Parameters<typeof benchServiceSends>[0],
  url: string,
  bodyOf: (i: number) => string,
  round: number,
): Promise<SendBench> {
  const { http, api, rpcUrl, sender } = options;
  const startNonce = await nonceOf(http, rpcUrl, sender, 'pending');
  const bodies = Array.from({ length: options.count }, (_, i) => bodyOf(i));
  const accepted: Accepted[] = [];

  const started = performance.now();
  const push = await runLoad({
    concurrency: options.concurrency,
    count: options.count,
    ...(options.cpuSnapshot ? { cpuSnapshot: options.cpuSnapshot } : {}),
    task: async (i) => {
      const answer = await http.post(url, bodies[i] as string, headersOf(options, `round-${round}-${i}`));
      if (answer.status !== 201) return { ok: false, reason: failureReason(answer.status, answer.text) };
      accepted.push(JSON.parse(answer.text) as Accepted);
      return { ok: true };
    },
  });
  const [minedAt, final] = await Promise.all([
    waitForMinedNonce(http, rpcUrl, sender, startNonce + accepted.length, sendTimeoutMs),
    waitForAllFinal(api, accepted, sendTimeoutMs),
  ]);
  const stall =
    minedAt === undefined ? await describeStall(http, { rpcUrl, api, sender }, accepted) : undefined;
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
    minedMs: minedAt === undefined ? undefined : minedAt - started,
    confirmedMs: final.at === undefined ? undefined : final.at - started,
    statusCounts,
    ...(stall ? { stalls: [stall] } : {}),
    checks: [
      {
        name: `all ${options.count.toLocaleString('en')} answered 201`,
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
        name: `chain: final nonce = start + ${options.count.toLocaleString('en')}`,
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
