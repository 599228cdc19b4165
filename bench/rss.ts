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

/** Proportional set size (bytes): RSS with shared pages split among their users, so processes add up. */
function readPss(pid: number): number | undefined {
  try {
    const match = /Pss:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Memory of the server and its store: the server process and every PostgreSQL process it started
 * (the embedded store), by PSS so the server's shared buffers count once. Not anvil.
 */
export function serverAndStoreMemory(serverPid: number, storePids: () => number[]): number | undefined {
  const server = readPss(serverPid);
  if (server === undefined) return undefined;
  return storePids().reduce((sum, pid) => sum + (readPss(pid) ?? 0), server);
}

/** Samples `read` every `intervalMs`, keeping the peak of the current window. */
export function sampleMemory(read: () => number | undefined, intervalMs = 100): RssSampler {
  let peak = read() ?? 0;
  const timer = setInterval(() => {
    const value = read();
    if (value !== undefined && value > peak) peak = value;
  }, intervalMs);
  return {
    reset: () => {
      peak = read() ?? 0;
    },
    peak: () => Math.max(peak, read() ?? 0),
    stop: () => clearInterval(timer),
  };
}
