/**
 * `node --import tsx bench/token-facade.ts [--pglite] [--rounds=3] [--count=1000]`: what the ERC-20
 * facade costs over the generic call. The same ERC-20 transfers from the same sender, `concurrency` 64,
 * through `POST /erc/v1/erc20/transfer` and through `POST /core/v1/evm/transact/mutable`, in one run on
 * one service, alternating rounds so drift of the machine hits both sides alike. Each phase waits until
 * the chain mined everything before the next starts. Writes bench/results-token-facade.md.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { apiFor, deployToken } from './api.ts';
import { nonceOf, waitForMinedNonce } from './chain.ts';
import { Cleanup } from './cleanup.ts';
import { type CpuUse, cpuSnapshot, formatCpu } from './cpu.ts';
import { nodeHttpClient } from './http-client.ts';
import { failureReason, type LoadResult, perSecond, runLoad } from './load.ts';
import { fmt } from './report.ts';
import { recipients, sendTimeoutMs } from './sends.ts';
import { startServiceUnderTest } from './service-under-test.ts';

const pglite = process.argv.includes('--pglite');
const option = (name: string, fallback: number) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const rounds = option('rounds', 3);
const count = option('count', 1_000);
const concurrency = 64;

function log(message: string): void {
  process.stderr.write(`[token-facade ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

type Side = 'facade' | 'mutable';
type Totals = {
  ok: number;
  failed: number;
  elapsedMs: number;
  latencies: number[];
  cpu: CpuUse[];
  failures: Map<string, number>;
};

function add(totals: Totals, result: LoadResult): void {
  totals.ok += result.ok;
  totals.failed += result.failed;
  totals.elapsedMs += result.elapsedMs;
  totals.latencies.push(...result.latencies);
  if (result.cpu) totals.cpu.push(result.cpu);
  for (const [reason, n] of result.failures)
    totals.failures.set(reason, (totals.failures.get(reason) ?? 0) + n);
}

function meanCpu(list: CpuUse[]): CpuUse | undefined {
  if (list.length === 0) return undefined;
  const sum = { 'load generator': 0, server: 0, anvil: 0, postgres: 0 } as CpuUse;
  for (const use of list)
    for (const key of Object.keys(sum) as Array<keyof CpuUse>) sum[key] += use[key] / list.length;
  return sum;
}

async function main(cleanup: Cleanup): Promise<string> {
  const loadBefore = loadavg()[0] ?? 0;
  const http = nodeHttpClient(concurrency * 2);
  cleanup.add('http client', () => http.close());
  log(`starting chaingate (${pglite ? 'PGlite' : 'external PostgreSQL'}, devnet block time 0.2 s)`);
  const service = await startServiceUnderTest(cleanup, {
    store: pglite ? 'pglite' : 'external',
    tsx: false,
    blockTimeSeconds: 0.2,
  });
  const api = apiFor(http, service);
  const { sender, devnetRpcUrl: rpcUrl } = service.credentials;
  log('setup: deploying the ERC20');
  const token = await deployToken(api, sender);

  const paths: Record<Side, string> = {
    facade: `${service.url}/erc/v1/erc20/transfer`,
    mutable: `${service.url}/core/v1/evm/transact/mutable`,
  };
  const bodyOf = (side: Side, i: number) =>
    JSON.stringify(
      side === 'facade'
        ? { contractAddress: token, network: 31337, recipient: recipients[i % recipients.length], amount: 1 }
        : {
            contractAddress: token,
            sender,
            blockchainNetwork: 31337,
            method: 'transfer',
            params: [recipients[i % recipients.length], 1],
          },
    );
  const totals: Record<Side, Totals> = {
    facade: { ok: 0, failed: 0, elapsedMs: 0, latencies: [], cpu: [], failures: new Map() },
    mutable: { ok: 0, failed: 0, elapsedMs: 0, latencies: [], cpu: [], failures: new Map() },
  };
  const perRound: string[] = [];
  // A warm-up phase of each side first: JIT, caches (spec, default sender, token kind), sockets.
  const schedule: Array<[number, Side[]]> = [
    [0, ['mutable', 'facade']],
    ...Array.from({ length: rounds }, (_, r): [number, Side[]] => [
      r + 1,
      r % 2 === 0 ? ['mutable', 'facade'] : ['facade', 'mutable'],
    ]),
  ];
  for (const [round, sides] of schedule) {
    for (const side of sides) {
      const n = round === 0 ? 200 : count;
      const bodies = Array.from({ length: n }, (_, i) => bodyOf(side, i));
      const start = await nonceOf(http, rpcUrl, sender, 'pending');
      const result = await runLoad({
        concurrency,
        count: n,
        cpuSnapshot: () => cpuSnapshot(service.pid),
        task: async (i) => {
          const answer = await http.post(paths[side], bodies[i] as string, api.headers);
          return answer.status === 201
            ? { ok: true }
            : { ok: false, reason: failureReason(answer.status, answer.text) };
        },
      });
      const mined = await waitForMinedNonce(http, rpcUrl, sender, start + result.ok, sendTimeoutMs);
      if (mined === undefined) throw new Error(`${side} round ${round}: not all mined`);
      log(
        `round ${round} ${side}: ${result.ok} accepted in ${fmt.seconds(result.elapsedMs)} = ${fmt.rate(perSecond(result))}, ${result.failed} failed`,
      );
      if (round === 0) continue;
      add(totals[side], result);
      perRound.push(
        `| ${round} | ${side} | ${fmt.rate(perSecond(result))} | ${fmt.latency(result)} | ${result.failed} |`,
      );
    }
  }
  const rate = (side: Side) => totals[side].ok / (totals[side].elapsedMs / 1000);
  const overhead = rate('mutable') / rate('facade') - 1;
  const cpuRow = (side: Side) => {
    const cpu = meanCpu(totals[side].cpu);
    return cpu ? formatCpu(cpu) : 'n/a';
  };
  const failures = [...totals.facade.failures, ...totals.mutable.failures];
  return [
    `## ERC-20 facade vs transact/mutable (${pglite ? 'PGlite' : 'external PostgreSQL'})`,
    '',
    `- Run: ${new Date().toISOString()}, \`node --import tsx bench/token-facade.ts${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}\``,
    `- Server: ${service.entry}, store ${service.store}. Devnet: anvil, 0.2 s blocks.`,
    `- Machine: ${availableParallelism()} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; load average before: ${loadBefore.toFixed(2)}.`,
    `- ${rounds} rounds of ${count} transfers per side after a 200-transfer warm-up of each, c=${concurrency}, one sender (the default sender), rounds alternate which side goes first.`,
    '',
    '| Side | accepted/s (all rounds) | p50 / p99 accept latency | non-201 | CPU µs per request |',
    '|---|---:|---:|---:|---|',
    `| POST /erc/v1/erc20/transfer | ${fmt.rate(rate('facade'))} | ${fmt.latency(totals.facade as unknown as LoadResult)} | ${totals.facade.failed} | ${cpuRow('facade')} |`,
    `| POST /core/v1/evm/transact/mutable | ${fmt.rate(rate('mutable'))} | ${fmt.latency(totals.mutable as unknown as LoadResult)} | ${totals.mutable.failed} | ${cpuRow('mutable')} |`,
    '',
    `Facade cost over transact/mutable: ${(overhead * 100).toFixed(1)} % (target < 10 %): ${overhead < 0.1 ? 'PASS' : 'MISS'}.`,
    '',
    '| Round | Side | accepted/s | p50 / p99 | non-201 |',
    '|---:|---|---:|---:|---:|',
    ...perRound,
    '',
    '### Errors',
    '',
    ...(failures.length ? failures.map(([reason, n]) => `- ${n} × ${reason}`) : ['- none']),
    '',
  ].join('\n');
}

const cleanup = new Cleanup();
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    cleanup.run().finally(() => process.exit(code));
  });
}
try {
  const report = await main(cleanup);
  const file = new URL(
    pglite ? './results-token-facade-pglite.md' : './results-token-facade.md',
    import.meta.url,
  );
  writeFileSync(file, report);
  process.stdout.write(`\n${report}\n`);
} catch (error) {
  process.exitCode = 1;
  log(`failed: ${(error as Error).stack ?? error}`);
} finally {
  await cleanup.run();
  log('cleaned up');
}
