import { readFileSync } from 'node:fs';

/** Resident set size (bytes) of a process from /proc, or undefined once it is gone. */
export function readRss(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export type RssSampler = {
  /** Starts a new window; `peak()` then reports the highest sample since. */
  reset(): void;
  peak(): number;
  stop(): void;
};

/** Samples VmRSS every `intervalMs` (100 ms as the issue asks), keeping the peak of the current window. */
export function sampleRss(pid: number, intervalMs = 100): RssSampler {
  let peak = readRss(pid) ?? 0;
  const timer = setInterval(() => {
    const rss = readRss(pid);
    if (rss !== undefined && rss > peak) peak = rss;
  }, intervalMs);
  return {
    reset: () => {
      peak = readRss(pid) ?? 0;
    },
    peak: () => Math.max(peak, readRss(pid) ?? 0),
    stop: () => clearInterval(timer),
  };
}
