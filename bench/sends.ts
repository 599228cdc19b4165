import type { LoadResult } from './load.ts';

export type Check = { name: string; ok: boolean; detail: string };

export type SendBench = {
  push: LoadResult;
  /** Service only: the unmeasured warm-up sends, kept to show what a freshly started server costs. */
  warmup?: LoadResult;
  /** Service only: every measured round, in order; `push` is the one with the median server CPU. */
  rounds?: LoadResult[];
  /** From the first request to the sender's mined nonce reaching start + accepted; undefined on timeout. */
  minedMs: number | undefined;
  /** Service only: until the status endpoint reported every accepted transaction final. */
  confirmedMs?: number | undefined;
  /** Service only: final status counts (and what was still open at the timeout). */
  statusCounts?: Map<string, number>;
  /** Service only: what the chain, the node's pool and the service said about each round not mined in time. */
  stalls?: string[];
  /** Raw only: time spent signing beforehand (not part of the rate). */
  signMs?: number;
  checks: Check[];
};

/** Distinct recipients, the same list for both senders, so both pay the same storage costs. */
export const recipients = Array.from(
  { length: 16 },
  (_, i) => `0x00000000000000000000000000000000000b${(0xe000 + i).toString(16)}`,
);

export const sendTimeoutMs = 90_000;
