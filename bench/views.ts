import { encodeFunctionData, erc20Abi } from 'viem';
import type { CpuUse } from './cpu.ts';
import type { HttpClient } from './http-client.ts';
import { failureReason, type LoadResult, type Outcome, runLoad } from './load.ts';

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
  /** bench/minimal-proxy.ts, measured after the service with the same body, if given. */
  minimalProxy?: { url: string; cpuSnapshot: () => CpuUse };
};

/**
 * balanceOf through `POST /transact/view` versus the same `eth_call` sent straight to anvil, same
 * client, same concurrency, same duration; both answers are parsed so both sides pay for JSON.
 */
export async function benchViews(options: ViewOptions): Promise<ViewBench> {
  const { http } = options;
  const viewUrl = `${options.serviceUrl}/core/v1/evm/transact/view`;
  const viewBody = JSON.stringify({
    contractAddress: options.token,
    blockchainNetwork: 31337,
    method: 'balanceOf',
    params: [options.holder],
  });
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
  await run(direct, options.warmupMs);
  const directResult = await run(direct, options.durationMs, options.cpuSnapshot);
  await run(viaService, options.warmupMs);
  const serviceResult = await run(viaService, options.durationMs, options.cpuSnapshot);
  let proxyResult: LoadResult | undefined;
  const proxy = options.minimalProxy;
  if (proxy) {
    const viaProxy = async (): Promise<Outcome> => {
      const answer = await http.post(proxy.url, viewBody);
      if (answer.status !== 200 || !Array.isArray(JSON.parse(answer.text))) {
        return { ok: false, reason: failureReason(answer.status, answer.text) };
      }
      return { ok: true };
    };
    await run(viaProxy, options.warmupMs);
    proxyResult = await run(viaProxy, options.durationMs, proxy.cpuSnapshot);
  }
  return { service: serviceResult, direct: directResult, minimalProxy: proxyResult };
}
