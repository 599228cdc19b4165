import { performance } from 'node:perf_hooks';
import { type CpuUse, cpuPerRequest } from './cpu.ts';

export type Outcome = { ok: true } | { ok: false; reason: string };

export type LoadResult = {
  ok: number;
  failed: number;
  elapsedMs: number;
  /** Latencies (ms) of the successful requests. */
  latencies: number[];
  /** Failure reasons (status code and message) with their counts, so errors are reported, not hidden. */
  failures: Map<string, number>;
  /** CPU µs per successful request by process group, when the caller gave a snapshot function. */
  cpu?: CpuUse;
};

function emptyResult(): LoadResult {
  return { ok: 0, failed: 0, elapsedMs: 0, latencies: [], failures: new Map() };
}

/**
 * Keeps `concurrency` tasks in flight until `count` tasks ran or `durationMs` passed (whichever is
 * given). Each task gets its index; a thrown error counts as a failure with its message.
 */
export async function runLoad(options: {
  concurrency: number;
  count?: number;
  durationMs?: number;
  task: (index: number) => Promise<Outcome>;
  cpuSnapshot?: () => CpuUse;
}): Promise<LoadResult> {
  const result = emptyResult();
  const cpuBefore = options.cpuSnapshot?.();
  const started = performance.now();
  const deadline = options.durationMs === undefined ? Number.POSITIVE_INFINITY : started + options.durationMs;
  const count = options.count ?? Number.POSITIVE_INFINITY;
  let next = 0;
  const worker = async () => {
    while (next < count && performance.now() < deadline) {
      const index = next++;
      const sent = performance.now();
      let outcome: Outcome;
      try {
        outcome = await options.task(index);
      } catch (error) {
        outcome = { ok: false, reason: `exception: ${(error as Error).message}` };
      }
      if (outcome.ok) {
        result.ok++;
        result.latencies.push(performance.now() - sent);
      } else {
        result.failed++;
        result.failures.set(outcome.reason, (result.failures.get(outcome.reason) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  result.elapsedMs = performance.now() - started;
  if (options.cpuSnapshot && cpuBefore)
    result.cpu = cpuPerRequest(cpuBefore, options.cpuSnapshot(), result.ok);
  return result;
}

export function perSecond(result: LoadResult): number {
  return result.ok / (result.elapsedMs / 1000);
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** A short reason for a non-2xx answer: status code plus the start of the body. */
export function failureReason(status: number, text: string): string {
  return `HTTP ${status}: ${text.replace(/\s+/g, ' ').slice(0, 300)}`;
}
