/**
 * What the service's process does to the same HTTP work: the bare proxy of `minimal-proxy-app.ts` run
 * inside the service's process (preloaded, `in-process-proxy.ts`) and in a process of its own, next to
 * the service's view endpoint, with the same requests. The three sides take turns in rotating order
 * (3 s rounds at c=32) on one service (external PostgreSQL, 0.2 s blocks).
 *
 * The in-process proxy's CPU is the whole service process's, so it includes the service's own background
 * work while idle (engine ticks, devnet snapshots, Soroban ledgers: about 1–2 µs a view).
 *
 * `node --import tsx bench/view-process.ts [rounds]` (default 9); prints one line per round and the medians.
 */
import { fileURLToPath } from 'node:url';
import { encodeFunctionData, erc20Abi } from 'viem';
import { findFreePort } from '../src/platform/net/free-port.ts';
import { DEVNET_RPC_BATCH_SIZE } from '../src/platform/networks/evm-networks.ts';
import { Cleanup } from './cleanup.ts';
import { cpuSnapshot } from './cpu.ts';
import { nodeHttpClient } from './http-client.ts';
import { median, runLoad } from './load.ts';
import { startViewStudy } from './views.ts';

const rounds = Number(process.argv[2] ?? 9);
const roundMs = 3_000;

const cleanup = new Cleanup();
try {
  const http = nodeHttpClient(128);
  cleanup.add('http client', () => http.close());
  const controlPort = await findFreePort();
  const preload = fileURLToPath(new URL('./in-process-proxy.ts', import.meta.url));
  // Read by spawnCompiledServer and inherited by the server's environment.
  process.env.BENCH_NODE_ARGS = `${process.env.BENCH_NODE_ARGS ?? ''} --import tsx --import ${preload}`;
  process.env.BENCH_IN_PROCESS_PROXY_CONTROL_PORT = String(controlPort);
  const {
    service,
    api,
    sender,
    devnetRpcUrl,
    token,
    proxy: standalone,
  } = await startViewStudy(cleanup, http);
  const inProcessPort = await findFreePort();
  const started = await http.post(
    `http://127.0.0.1:${controlPort}/`,
    JSON.stringify({
      port: inProcessPort,
      rpcUrl: devnetRpcUrl,
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [sender as `0x${string}`] }),
      batchSize: DEVNET_RPC_BATCH_SIZE,
    }),
  );
  if (started.status !== 200) throw new Error(`the in-process proxy did not start: ${started.text}`);

  const body = JSON.stringify({
    contractAddress: token,
    blockchainNetwork: 31337,
    method: 'balanceOf',
    params: [sender],
  });
  const sides = [
    { name: 'service view', url: `${service.url}/core/v1/evm/transact/view`, pid: service.pid },
    { name: 'proxy in the service process', url: `http://127.0.0.1:${inProcessPort}/view`, pid: service.pid },
    { name: 'proxy in its own process', url: `${standalone.url}/view`, pid: standalone.pid },
  ];
  const measure = async (side: (typeof sides)[number], durationMs: number) => {
    const result = await runLoad({
      concurrency: 32,
      durationMs,
      cpuSnapshot: () => cpuSnapshot(side.pid),
      task: async () => {
        // The same credential headers to every side: unread by the proxies, still parsed by Node.
        const answer = await http.post(side.url, body, api.headers);
        return answer.status === 200
          ? { ok: true }
          : { ok: false, reason: `${answer.status} ${answer.text}` };
      },
    });
    if (result.failed > 0) throw new Error(`${side.name}: ${JSON.stringify([...result.failures])}`);
    return result.cpu?.server ?? Number.NaN;
  };
  for (const side of sides) await measure(side, 2_000);
  const micros: number[][] = sides.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const line: string[] = [];
    for (let step = 0; step < sides.length; step++) {
      const index = (round + step) % sides.length;
      const value = await measure(sides[index] as (typeof sides)[number], roundMs);
      micros[index]?.push(value);
    }
    for (const [index, side] of sides.entries())
      line.push(`${side.name} ${micros[index]?.[round]?.toFixed(1)}`);
    console.log(`round ${round + 1}: ${line.join(' · ')} µs server CPU a view`);
  }
  const medians = micros.map(median);
  console.log(
    `medians: ${sides.map((side, index) => `${side.name} ${medians[index]?.toFixed(1)}`).join(' · ')} µs`,
  );
  const dearer = micros[1]?.filter(
    (value, round) => value > (micros[2]?.[round] ?? Number.POSITIVE_INFINITY),
  ).length;
  console.log(
    `the proxy cost more in the service's process than in its own in ${dearer} of ${rounds} rounds`,
  );
} finally {
  await cleanup.run();
}
