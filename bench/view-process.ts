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
import { nodeHttpClient } from './http-client.ts';
import { measureViewSides } from './view-sides.ts';
import { balanceOfViewBody, startViewStudy } from './views.ts';

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

  const body = balanceOfViewBody(token, sender);
  const sides = [
    { name: 'service view', url: `${service.url}/core/v1/evm/transact/view`, pid: service.pid },
    { name: 'proxy in the service process', url: `http://127.0.0.1:${inProcessPort}/view`, pid: service.pid },
    { name: 'proxy in its own process', url: `${standalone.url}/view`, pid: standalone.pid },
  ];
  const micros = await measureViewSides({ http, sides, body, headers: api.headers, rounds, roundMs });
  const dearer = micros[1]?.filter(
    (value, round) => value > (micros[2]?.[round] ?? Number.POSITIVE_INFINITY),
  ).length;
  console.log(
    `the proxy cost more in the service's process than in its own in ${dearer} of ${rounds} rounds`,
  );
} finally {
  await cleanup.run();
}
