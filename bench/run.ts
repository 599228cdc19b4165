/**
 * `npm run bench [-- --only=embedded|external] [-- --pglite] [-- --tsx] [-- --client=fetch] [-- --keyed]`: throughput,
 * CPU per request by process, latency and memory of chaingate against the anvil it runs, measured on this
 * machine. Two setups by default, one after the other: the embedded default as a newcomer runs it
 * (`npm start`: the embedded store, 1 s devnet blocks) and an external PostgreSQL server (0.2 s blocks,
 * as earlier runs); `--pglite` adds the PGlite store. Prints markdown tables and writes bench/results.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { apiFor, deployToken, transferAndWait } from './api.ts';
import { Cleanup } from './cleanup.ts';
import { cpuSnapshot, formatCpu, totalMicros } from './cpu.ts';
import { fetchClient, nodeHttpClient } from './http-client.ts';
import { type LoadResult, perSecond } from './load.ts';
import { storePids } from './processes.ts';
import { checksTable, failuresList, fmt, type Row, rateRatio, table, verdict } from './report.ts';
import { sampleMemory, serverAndStoreMemory } from './rss.ts';
import { anvilDevAccount, benchRawSends } from './sends-raw.ts';
import { benchServiceSends } from './sends-service.ts';
import { type StoreUnderTest, startMinimalProxy, startServiceUnderTest } from './service-under-test.ts';
import { benchViews, VIEW_ROUNDS } from './views.ts';

type Setup = { store: StoreUnderTest; blockTimeSeconds: number; title: string };
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const setups: Setup[] = [
  { store: 'embedded' as const, blockTimeSeconds: 1, title: 'the embedded default, as `npm start` runs it' },
  { store: 'external' as const, blockTimeSeconds: 0.2, title: 'external PostgreSQL' },
  ...(process.argv.includes('--pglite')
    ? [{ store: 'pglite' as const, blockTimeSeconds: 1, title: 'PGlite (CHAINGATE_EMBEDDED_STORE=pglite)' }]
    : []),
].filter((setup) => only === undefined || setup.store === only);
const useFetch = process.argv.includes('--client=fetch');
const tsx = process.argv.includes('--tsx');
/** Every service send with an Idempotency-Key of its own. */
const keyed = process.argv.includes('--keyed');
const viewConcurrency = 32;
const sendConcurrency = 64;
const sendCount = 2_000;
/**
 * Sends before the measured ones. V8 keeps optimising the send path for thousands of requests (a
 * send runs far more distinct code than a view): measured after 500 a send cost ~35 % more server
 * CPU than after 5,000 on this box. The warm-up's own figure is reported beside the steady state.
 */
const sendWarmup = 5_000;
/** Measured rounds of `sendCount` sends; the report takes the one with the median server CPU. */
const sendRounds = 3;
const viewWarmupMs = 2_000;
/** The performance issue's targets, per request and per setup. */
const targets = {
  viewServerMicros: 55,
  sendServerMicros: 350,
  sendAnvilMicros: 500,
  acceptedPerSecond: { embedded: 900, external: 1200, pglite: 900 },
  memoryBytes: { embedded: 400 * 1024 * 1024, external: 200 * 1024 * 1024, pglite: 400 * 1024 * 1024 },
};

function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

async function main(cleanup: Cleanup, setup: Setup): Promise<string> {
  // Other work on the machine skews every number here: the load before the start goes in the report.
  const loadBefore = loadavg()[0] ?? 0;
  // Sockets for the in-flight requests plus the status polling that runs next to them.
  const http = useFetch ? fetchClient() : nodeHttpClient(sendConcurrency * 2);
  cleanup.add('http client', () => http.close());

  log(`starting chaingate (${setup.title}, devnet block time ${setup.blockTimeSeconds} s)`);
  const service = await startServiceUnderTest(cleanup, {
    store: setup.store,
    tsx,
    blockTimeSeconds: setup.blockTimeSeconds,
  });
  const memory = () => serverAndStoreMemory(service.pid, () => storePids(service.pid));
  const rss = sampleMemory(memory);
  cleanup.add('memory sampler', () => rss.stop());
  const rssAfterStart = memory() ?? 0;
  const api = apiFor(http, service);
  const { sender, devnetRpcUrl: rpcUrl } = service.credentials;
  const snapshot = () => cpuSnapshot(service.pid);

  log('setup: deploying ERC20 and funding the anvil dev account with tokens');
  const token = await deployToken(api, sender);
  await transferAndWait(api, token, sender, anvilDevAccount.address, (10n ** 21n).toString());

  const proxy = await startMinimalProxy(cleanup, rpcUrl, token, sender);
  log(
    `views: ${viewConcurrency} in flight, ${viewWarmupMs / 1000} s warm-up each, then direct eth_call, the service and a minimal proxy in turn (the last two swap places every round), ${VIEW_ROUNDS} rounds of 1 s`,
  );
  rss.reset();
  const views = await benchViews({
    http,
    serviceUrl: service.url,
    headers: api.headers,
    rpcUrl,
    token,
    holder: sender,
    concurrency: viewConcurrency,
    warmupMs: viewWarmupMs,
    durationMs: VIEW_ROUNDS * 1_000,
    cpuSnapshot: snapshot,
    minimalProxy: { url: `${proxy.url}/view`, cpuSnapshot: () => cpuSnapshot(proxy.pid) },
  });
  const rssDuringViews = rss.peak();

  log(`raw sends: signing ${sendCount} transfers, pushing with ${sendConcurrency} in flight`);
  const raw = await benchRawSends({
    http,
    rpcUrl,
    token,
    count: sendCount,
    concurrency: sendConcurrency,
    cpuSnapshot: snapshot,
  });

  log(
    `service sends: ${sendWarmup} warm-up transfers, then ${sendRounds} rounds of ${sendCount} measured, ${sendConcurrency} in flight`,
  );
  rss.reset();
  const sends = await benchServiceSends({
    http,
    api,
    serviceUrl: service.url,
    rpcUrl,
    token,
    sender,
    count: sendCount,
    concurrency: sendConcurrency,
    warmup: sendWarmup,
    rounds: sendRounds,
    cpuSnapshot: snapshot,
    keyed,
  });
  const rssDuringSends = rss.peak();

  const viewRatio = rateRatio(views.service, views.direct);
  const acceptedPerSecond = perSecond(sends.push);
  const sendRatio = rateRatio(sends.push, raw.push);
  const acceptedTarget = targets.acceptedPerSecond[setup.store];
  const memoryTarget = targets.memoryBytes[setup.store];
  const viewServer = views.service.cpu?.server ?? Number.NaN;
  const sendServer = sends.push.cpu?.server ?? Number.NaN;
  const sendAnvil = sends.push.cpu?.anvil ?? Number.NaN;
  const sendRoundResults = sends.rounds ?? [sends.push];
  const sendFailures = sendRoundResults.reduce((sum, round) => sum + round.failed, 0);
  const rows: Row[] = [
    {
      scenario: `View balanceOf, c=${viewConcurrency}, ${VIEW_ROUNDS} s (${VIEW_ROUNDS} interleaved rounds)`,
      metric: 'requests/s',
      service: fmt.rate(perSecond(views.service)),
      raw: fmt.rate(perSecond(views.direct)),
      ratio: fmt.percent(viewRatio),
      target: '',
      result: '',
    },
    {
      scenario: '',
      metric: 'server CPU per view',
      service: `${viewServer.toFixed(0)} µs`,
      raw: '',
      ratio: '',
      target: `≤ ${targets.viewServerMicros} µs`,
      result: verdict(viewServer <= targets.viewServerMicros),
    },
    {
      scenario: '',
      metric: 'p50 / p99 latency',
      service: fmt.latency(views.service),
      raw: fmt.latency(views.direct),
      ratio: '',
      target: '',
      result: '',
    },
    ...(views.minimalProxy
      ? [
          {
            scenario: '',
            metric: 'reference: a bare Fastify proxy, same transport, same request',
            service: fmt.rate(perSecond(views.minimalProxy)),
            raw: fmt.rate(perSecond(views.direct)),
            ratio: fmt.percent(rateRatio(views.minimalProxy, views.direct)),
            target: '',
            result: '',
          },
          {
            scenario: '',
            // The machine's speed moves every CPU figure of a run together (±50 % seen between runs on
            // the same box); against the bare proxy of the same run it does not. The issue's 55 µs
            // against its ~49 µs proxy is this ratio at 1.12. Since the proxy gets the credential
            // headers too, it costs ~3 µs more than the proxy the issue measured (if that one had none).
            metric: 'server CPU per view ÷ the bare proxy’s, same run',
            service:
              views.service.cpu && views.minimalProxy?.cpu
                ? `${(views.service.cpu.server / views.minimalProxy.cpu.server).toFixed(2)}×`
                : 'n/a',
            raw: '',
            ratio: '',
            target: '≤ 1.12× (55 ÷ 49 µs)',
            result:
              views.service.cpu && views.minimalProxy?.cpu
                ? verdict(views.service.cpu.server / views.minimalProxy.cpu.server <= 1.12)
                : '',
          },
        ]
      : []),
    {
      scenario: '',
      metric: 'errors',
      service: String(views.service.failed),
      raw: String(views.direct.failed),
      ratio: '',
      target: '0',
      result: verdict(views.service.failed === 0),
    },
    {
      scenario: `Sends ${sendCount} ERC-20 transfers, c=${sendConcurrency} (the median of ${sendRounds} rounds)`,
      metric: 'accepted/s',
      service: fmt.rate(acceptedPerSecond),
      raw: fmt.rate(perSecond(raw.push)),
      ratio: fmt.percent(sendRatio),
      target: `≥ ${acceptedTarget}/s`,
      result: verdict(acceptedPerSecond >= acceptedTarget),
    },
    {
      scenario: '',
      metric: 'server CPU per send',
      service: `${sendServer.toFixed(0)} µs`,
      raw: '',
      ratio: '',
      target: `≤ ${targets.sendServerMicros} µs`,
      result: verdict(sendServer <= targets.sendServerMicros),
    },
    {
      scenario: '',
      metric: 'server CPU per send · accepted/s, each round in order',
      service: sendRoundResults
        .map((round) => `${(round.cpu?.server ?? Number.NaN).toFixed(0)} µs · ${fmt.rate(perSecond(round))}`)
        .join(' / '),
      raw: '',
      ratio: '',
      target: '',
      result: '',
    },
    {
      scenario: '',
      metric: `server CPU per send, the ${sendWarmup} warm-up sends (fresh server)`,
      service: `${(sends.warmup?.cpu?.server ?? Number.NaN).toFixed(0)} µs`,
      raw: '',
      ratio: '',
      target: '',
      result: '',
    },
    {
      scenario: '',
      metric: 'anvil CPU per send',
      service: `${sendAnvil.toFixed(0)} µs`,
      raw: `${(raw.push.cpu?.anvil ?? Number.NaN).toFixed(0)} µs`,
      ratio: '',
      target: `≤ ${targets.sendAnvilMicros} µs`,
      result: verdict(sendAnvil <= targets.sendAnvilMicros),
    },
    {
      scenario: '',
      metric: 'p50 / p99 accept latency',
      service: fmt.latency(sends.push),
      raw: fmt.latency(raw.push),
      ratio: '',
      target: '',
      result: '',
    },
    {
      scenario: '',
      metric: 'push duration (all answered)',
      service: fmt.seconds(sends.push.elapsedMs),
      raw: fmt.seconds(raw.push.elapsedMs),
      ratio: '',
      target: '',
      result: '',
    },
    {
      scenario: '',
      metric: 'time until all mined (chain)',
      service: fmt.seconds(sends.minedMs),
      raw: fmt.seconds(raw.minedMs),
      ratio: '',
      target: '',
      result: '',
    },
    {
      scenario: '',
      metric: 'time until all confirmed (status API)',
      service: fmt.seconds(sends.confirmedMs),
      raw: '',
      ratio: '',
      target: '',
      result: '',
    },
    {
      scenario: '',
      metric: 'non-201 answers (all rounds)',
      service: String(sendFailures),
      raw: String(raw.push.failed),
      ratio: '',
      target: '0',
      result: verdict(sendFailures === 0),
    },
    {
      scenario: '',
      metric: 'nonce/receipt checks',
      service: `${sends.checks.filter((c) => c.ok).length}/${sends.checks.length} pass`,
      raw: `${raw.checks.filter((c) => c.ok).length}/${raw.checks.length} pass`,
      ratio: '',
      target: 'all pass',
      result: verdict(sends.checks.every((c) => c.ok)),
    },
    {
      scenario: `Memory (server + store processes, PSS, 100 ms samples; ${tsx ? 'tsx' : 'compiled'})`,
      metric: 'peak during sends',
      service: fmt.mb(rssDuringSends),
      raw: '',
      ratio: '',
      target: `≤ ${fmt.mb(memoryTarget)}`,
      result: verdict(rssDuringSends <= memoryTarget),
    },
    {
      scenario: '',
      metric: 'after start / peak during views',
      service: `${fmt.mb(rssAfterStart)} / ${fmt.mb(rssDuringViews)}`,
      raw: '',
      ratio: '',
      target: '',
      result: '',
    },
  ];

  const failures = [
    ...failuresList('view via service', views.service),
    ...failuresList('direct eth_call', views.direct),
    ...sendRoundResults.flatMap((round, index) =>
      failuresList(`send via service, round ${index + 1}`, round),
    ),
    ...failuresList('raw eth_sendRawTransaction', raw.push),
    ...(sends.stalls ?? []).map((stall) => `- service sends not all mined in time, ${stall}`),
  ];
  if ([...sends.checks, ...raw.checks].some((check) => !check.ok)) {
    // The server's own words (its warnings: re-sends, recoveries) for whoever reads the failure.
    const file = new URL(`../.tmp/bench-server-${setup.store}.log`, import.meta.url);
    mkdirSync(new URL('.', file), { recursive: true });
    writeFileSync(file, service.output());
    failures.push(`- a check failed: the server's output is in .tmp/bench-server-${setup.store}.log`);
  }
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return [
    `## chaingate benchmark: ${setup.title}`,
    '',
    `- Run: ${new Date().toISOString()}, \`npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\``,
    `- Server: ${service.entry}, store ${service.store}.`,
    `- Machine: ${availableParallelism()} cores (os.availableParallelism()), ${cpu}, ${fmt.mb(totalmem())} RAM, Node ${process.version}`,
    `- Load average (1 min) before the run: ${loadBefore.toFixed(2)}. Load generator and service share the machine. Client for both sides: ${http.name}. Devnet: anvil, ${setup.blockTimeSeconds} s blocks.`,
    `- Raw sends: ${sendCount} transfers pre-signed in ${fmt.ms(raw.signMs)} (not counted), same token, same recipients.`,
    `- Service sends${keyed ? ', each with an `Idempotency-Key` of its own (`--keyed`)' : ''}: ${sendWarmup} unmeasured warm-up transfers first, mined before the measured ${sendCount} (views get ${viewWarmupMs / 1000} s), so the numbers are the steady state, not the JIT's first minutes; the warm-up's own server CPU is shown too. The measured ${sendCount} are sent ${sendRounds} times, each round mined and confirmed before the next; the table shows the round with the median server CPU (its CPU, rate, latency and times), every round's CPU and rate beside it, and the checks of every round.`,
    '',
    table(rows),
    '',
    '### CPU per request (user + system, from /proc, during the measured phase)',
    '',
    "The machine's cores bound every rate: cores ÷ CPU per request is the most any side could reach here.",
    '',
    cpuTable([
      ['View via chaingate', views.service],
      ['View, direct eth_call', views.direct],
      ...(views.minimalProxy
        ? [['View via a minimal proxy', views.minimalProxy] as [string, LoadResult]]
        : []),
      ['Send via chaingate', sends.push],
      ['Send, raw pre-signed', raw.push],
    ]),
    '',
    '### Checks of the service sends',
    '',
    checksTable([...sends.checks, ...raw.checks]),
    '',
    '### Errors',
    '',
    ...(failures.length ? failures : ['- none']),
    '',
  ].join('\n');
}

function cpuTable(rows: Array<[string, LoadResult]>): string {
  const cores = availableParallelism();
  return [
    '| Scenario | CPU µs per request by process | ceiling (cores ÷ CPU) | measured |',
    '|---|---|---:|---:|',
    ...rows.map(([name, result]) => {
      const cpu = result.cpu;
      if (!cpu) return `| ${name} | not measured | | |`;
      const ceiling = (cores * 1e6) / totalMicros(cpu);
      return `| ${name} | ${formatCpu(cpu)} | ${fmt.rate(ceiling)} | ${fmt.rate(perSecond(result))} |`;
    }),
  ].join('\n');
}

const cleanup = new Cleanup();
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    log(`${signal}: cleaning up`);
    cleanup.run().finally(() => process.exit(code));
  });
}
const started = Date.now();
try {
  const reports: string[] = [];
  for (const setup of setups) {
    const each = new Cleanup();
    try {
      reports.push(await main(each, setup));
    } finally {
      await each.run();
    }
  }
  const report = reports.join('\n');
  const file = new URL('./results.md', import.meta.url);
  writeFileSync(file, report);
  process.stdout.write(`\n${report}\n`);
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s; written to ${file.pathname}`);
} catch (error) {
  process.exitCode = 1;
  log(`failed: ${(error as Error).stack ?? error}`);
} finally {
  await cleanup.run();
  log('cleaned up');
}
