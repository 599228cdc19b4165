import { encodeFunctionData, erc20Abi } from 'viem';
import { apiFor, deployToken } from './api.ts';
import type { Cleanup } from './cleanup.ts';
import type { CpuUse } from './cpu.ts';
import type { HttpClient } from './http-client.ts';
import { failureReason, type LoadResult, type Outcome, runLoad } from './load.ts';
import { startMinimalProxy, startServiceUnderTest } from './service-under-test.ts';

export type ViewBench = { service: LoadResult; direct: LoadResult; minimalProxy: LoadResult | undefined };

export type ViewOptions = {
  http: HttpClient;
  serviceUrl: string;
  headers: Record<string, string>;
  rpcUrl: string;
  token: string;
  holder: string;
  concurrency: number;
  warmupMs: number;
  durationMs: number;
  cpuSnapshot?: () => CpuUse;
  /** bench/minimal-proxy.ts, measured in turn with the service with the same request, if given. */
  minimalProxy?: { url: string; cpuSnapshot: () => CpuUse };
  /**
   * Which of service and proxy runs right after the direct round: `alternate` (the bench) swaps them
   * every round; the fixed orders are for `bench/view-order.ts`, which shows what the order does.
   */
  order?: ViewRoundOrder;
  /** Number of rounds per side (default VIEW_ROUNDS); `durationMs` is split between them. */
  rounds?: number;
};

export type ViewRoundOrder = 'alternate' | 'service-first' | 'proxy-first';

/** The bench's view request: the token's balanceOf(holder) through `POST /transact/view`. */
export function balanceOfViewBody(token: string, holder: string): string {
  return JSON.stringify({
    contractAddress: token,
    blockchainNetwork: 31337,
    method: 'balanceOf',
    params: [holder],
  });
}

/**
 * balanceOf through `POST /transact/view` versus the same `eth_call` sent straight to anvil, same
 * client, same concurrency, same duration; both answers are parsed so both sides pay for JSON.
 */
export async function benchViews(options: ViewOptions): Promise<ViewBench> {
  const { http } = options;
  const viewUrl = `${options.serviceUrl}/core/v1/evm/transact/view`;
  const viewBody = balanceOfViewBody(options.token, options.holder);
  const data = encodeFunctionData({
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [options.holder as never],
  });
  const callBody = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'eth_call',
    params: [{ to: options.token, data }, 'latest'],
  });

  const viaService = async (): Promise<Outcome> => {
    const answer = await http.post(viewUrl, viewBody, options.headers);
    if (answer.status !== 200 || !Array.isArray(JSON.parse(answer.text))) {
      return { ok: false, reason: failureReason(answer.status, answer.text) };
    }
    return { ok: true };
  };
  const direct = async (): Promise<Outcome> => {
    const answer = await http.post(options.rpcUrl, callBody);
    const body = JSON.parse(answer.text) as { result?: string; error?: unknown };
    if (answer.status !== 200 || typeof body.result !== 'string') {
      return { ok: false, reason: failureReason(answer.status, answer.text) };
    }
    return { ok: true };
  };

  const run = (
    task: () => Promise<Outcome>,
    durationMs: number,
    cpuSnapshot: (() => CpuUse) | undefined = undefined,
  ) =>
    runLoad({ concurrency: options.concurrency, durationMs, task, ...(cpuSnapshot ? { cpuSnapshot } : {}) });
  const proxy = options.minimalProxy;
  // The proxy gets the very request the service gets, credential headers included: it ignores them,
  // but Node's HTTP server still parses them, ~3 µs a request here (measured with and without).
  const viaProxy = async (): Promise<Outcome> => {
    const answer = await http.post(proxy?.url as string, viewBody, options.headers);
    if (answer.status !== 200 || !Array.isArray(JSON.parse(answer.text))) {
      return { ok: false, reason: failureReason(answer.status, answer.text) };
    }
    return { ok: true };
  };
  await run(direct, options.warmupMs);
  await run(viaService, options.warmupMs);
  if (proxy) await run(viaProxy, options.warmupMs);
  // The three sides take turns in short rounds rather than one long stretch each: what the other
  // tenants of a 2-core box do changes by the minute, and a side measured alone in a bad minute made
  // the service-to-proxy ratio swing by ±30 % between runs. Interleaved, all three share each minute.
  // The service and the proxy swap places every round. With a fixed order the proxy always came right
  // after the service, where it measured cheaper than right after the direct round (58 and 47 µs a view
  // against 64 and 53 µs, two runs of each order, 12 rounds each; the service moved ~2 µs), so
  // service ÷ proxy read 1.24–1.44 in that order and 1.13–1.26 in the other (bench/view-order.ts).
  const rounds = { direct: [] as LoadResult[], service: [] as LoadResult[], proxy: [] as LoadResult[] };
  const roundCount = options.rounds ?? VIEW_ROUNDS;
  const roundMs = options.durationMs / roundCount;
  const order = options.order ?? 'alternate';
  const measureService = async () => rounds.service.push(await run(viaService, roundMs, options.cpuSnapshot));
  const measureProxy = async () => {
    if (proxy) rounds.proxy.push(await run(viaProxy, roundMs, proxy.cpuSnapshot));
  };
  for (let round = 0; round < roundCount; round++) {
    rounds.direct.push(await run(direct, roundMs, options.cpuSnapshot));
    const serviceFirst = order === 'alternate' ? round % 2 === 0 : order === 'service-first';
    const [second, third] = serviceFirst ? [measureService, measureProxy] : [measureProxy, measureService];
    await second();
    await third();
  }
  return {
    service: mergeRounds(rounds.service),
    direct: mergeRounds(rounds.direct),
    minimalProxy: proxy ? mergeRounds(rounds.proxy) : undefined,
  };
}

/** Rounds of each side in the views bench; `durationMs` is split between them. */
export const VIEW_ROUNDS = 10;

/** One result for several rounds of the same load: counts and times add up, CPU is per request over all. */
export function mergeRounds(results: LoadResult[]): LoadResult {
  const merged: LoadResult = { ok: 0, failed: 0, elapsedMs: 0, latencies: [], failures: new Map() };
  const cpuTotal: Partial<Record<keyof CpuUse, number>> = {};
  for (const result of results) {
    merged.ok += result.ok;
    merged.failed += result.failed;
    merged.elapsedMs += result.elapsedMs;
    for (const latency of result.latencies) merged.latencies.push(latency);
    for (const [reason, count] of result.failures)
      merged.failures.set(reason, (merged.failures.get(reason) ?? 0) + count);
    if (!result.cpu) continue;
    for (const [group, micros] of Object.entries(result.cpu) as Array<[keyof CpuUse, number]>)
      cpuTotal[group] = (cpuTotal[group] ?? 0) + micros * result.ok;
  }
  if (Object.keys(cpuTotal).length > 0) {
    const cpu = {} as CpuUse;
    for (const [group, total] of Object.entries(cpuTotal) as Array<[keyof CpuUse, number]>)
      cpu[group] = merged.ok > 0 ? total / merged.ok : 0;
    merged.cpu = cpu;
  }
  return merged;
}

/**
 * The set-up of the view studies (`view-order.ts`, `view-process.ts`): one service on an external
 * PostgreSQL with 0.2 s blocks, a token it deployed, and the bare proxy in its own process.
 */
export async function startViewStudy(cleanup: Cleanup, http: HttpClient) {
  const service = await startServiceUnderTest(cleanup, {
    store: 'external',
    tsx: false,
    blockTimeSeconds: 0.2,
  });
  const api = apiFor(http, service);
  const { sender, devnetRpcUrl } = service.credentials;
  const token = await deployToken(api, sender);
  const proxy = await startMinimalProxy(cleanup, devnetRpcUrl, token, sender);
  return { service, api, sender, devnetRpcUrl, token, proxy };
}
