/**
 * What the order of the view rounds does to the service ÷ proxy ratio: the view phase of the bench
 * (direct eth_call, then the service and the bare proxy, 1 s rounds) run with the service always right
 * after the direct round, with the proxy always there, and alternating as `npm run bench` does, each
 * several times in turn on one service (external PostgreSQL, 0.2 s blocks) and one proxy.
 *
 * `node --import tsx bench/view-order.ts [pairs]` (default 3); prints one line per run and the medians.
 */
import { Cleanup } from './cleanup.ts';
import { cpuSnapshot } from './cpu.ts';
import { nodeHttpClient } from './http-client.ts';
import { median } from './load.ts';
import { benchViews, startViewStudy, type ViewRoundOrder } from './views.ts';

const pairs = Number(process.argv[2] ?? 3);
const orders: ViewRoundOrder[] = ['service-first', 'proxy-first', 'alternate'];
const rounds = 10;

const cleanup = new Cleanup();
try {
  const http = nodeHttpClient(128);
  cleanup.add('http client', () => http.close());
  const { service, api, sender, devnetRpcUrl, token, proxy } = await startViewStudy(cleanup, http);
  const ratios = new Map<ViewRoundOrder, number[]>(orders.map((order) => [order, []]));
  for (let pair = 0; pair < pairs; pair++) {
    for (const order of orders) {
      const views = await benchViews({
        http,
        serviceUrl: service.url,
        headers: api.headers,
        rpcUrl: devnetRpcUrl,
        token,
        holder: sender,
        concurrency: 32,
        warmupMs: 1_000,
        durationMs: rounds * 1_000,
        rounds,
        order,
        cpuSnapshot: () => cpuSnapshot(service.pid),
        minimalProxy: { url: `${proxy.url}/view`, cpuSnapshot: () => cpuSnapshot(proxy.pid) },
      });
      const serviceMicros = views.service.cpu?.server ?? Number.NaN;
      const proxyMicros = views.minimalProxy?.cpu?.server ?? Number.NaN;
      ratios.get(order)?.push(serviceMicros / proxyMicros);
      console.log(
        `${order.padEnd(13)} service ${serviceMicros.toFixed(1)} µs, proxy ${proxyMicros.toFixed(1)} µs, ratio ${(serviceMicros / proxyMicros).toFixed(3)}`,
      );
    }
  }
  for (const order of orders)
    console.log(`median ratio, ${order.padEnd(13)} ${median(ratios.get(order) ?? []).toFixed(3)}`);
} finally {
  await cleanup.run();
}
