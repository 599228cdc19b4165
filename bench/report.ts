import type { LoadResult } from './load.ts';
import { percentile, perSecond } from './load.ts';
import type { Check } from './sends.ts';

export type Row = {
  scenario: string;
  metric: string;
  service: string;
  raw: string;
  ratio: string;
  target: string;
  result: string;
};

export const fmt = {
  rate: (value: number) => `${value.toFixed(0)}/s`,
  ms: (value: number | undefined) => (value === undefined ? 'timeout' : `${value.toFixed(0)} ms`),
  seconds: (value: number | undefined) =>
    value === undefined ? 'timeout' : `${(value / 1000).toFixed(2)} s`,
  percent: (value: number) => `${(value * 100).toFixed(0)} %`,
  mb: (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`,
  latency: (result: LoadResult) =>
    `${percentile(result.latencies, 50).toFixed(1)} / ${percentile(result.latencies, 99).toFixed(1)} ms`,
};

export function verdict(ok: boolean): string {
  return ok ? 'PASS' : 'MISS';
}

export function rateRatio(service: LoadResult, raw: LoadResult): number {
  return perSecond(service) / perSecond(raw);
}

export function table(rows: Row[]): string {
  const header = '| Scenario | Metric | chaingate | raw anvil | ratio | Target | Result |';
  const lines = rows.map(
    (row) =>
      `| ${row.scenario} | ${row.metric} | ${row.service} | ${row.raw} | ${row.ratio} | ${row.target} | ${row.result} |`,
  );
  return [header, '|---|---|---:|---:|---:|---|---|', ...lines].join('\n');
}

export function checksTable(checks: Check[]): string {
  return [
    '| Check | Detail | Result |',
    '|---|---|---|',
    ...checks.map((check) => `| ${check.name} | ${check.detail} | ${verdict(check.ok)} |`),
  ].join('\n');
}

/** Every non-success answer, with its status code and message and how often it came. */
export function failuresList(title: string, result: LoadResult): string[] {
  return [...result.failures].map(([reason, count]) => `- ${title}: ${count} × ${reason}`);
}
