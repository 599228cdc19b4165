/**
 * Option 3 of the view target ("answer views in a slim process"), measured before anyone builds it: the
 * service's own view route, with its authentication and the EVM plugins, in a process of its own that
 * runs nothing else (`view-slim-app.ts`: no engine, devnet, Soroban, IPFS or wallets, on the service's
 * database and devnet). It takes turns with the service's view endpoint and the bare proxy in rotating
 * order (3 s rounds at c=32) on one service (external PostgreSQL, 0.2 s blocks), as `view-process.ts` does.
 *
 * `node --import tsx bench/view-slim.ts [rounds]` (default 9); prints one line per round and the medians.
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findFreePort } from '../src/platform/net/free-port.ts';
import { Cleanup } from './cleanup.ts';
import { nodeHttpClient } from './http-client.ts';
import { measureViewSides } from './view-sides.ts';
import { balanceOfViewBody, startViewStudy } from './views.ts';

const rounds = Number(process.argv[2] ?? 9);
const roundMs = 3_000;

/** The server's DATABASE_URL, as the bench set it (a throwaway database of the external server). */
function databaseUrlOf(pid: number): string {
  const variable = readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .find((entry) => entry.startsWith('DATABASE_URL='));
  if (!variable) throw new Error('the server has no DATABASE_URL');
  return variable.slice('DATABASE_URL='.length);
}

const cleanup = new Cleanup();
try {
  const http = nodeHttpClient(128);
  cleanup.add('http client', () => http.close());
  const { service, api, sender, devnetRpcUrl, token, proxy } = await startViewStudy(cleanup, http);
  const slimPort = await findFreePort();
  const script = fileURLToPath(new URL('./view-slim-app.ts', import.meta.url));
  const slim = fork(script, [String(slimPort), databaseUrlOf(service.pid), devnetRpcUrl], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  cleanup.add('slim view process', () => {
    slim.kill('SIGKILL');
  });
  await new Promise<void>((resolve, reject) => {
    slim.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    slim.once('exit', (code) => reject(new Error(`the slim view process exited with ${code}`)));
  });

  const body = balanceOfViewBody(token, sender);
  const sides = [
    { name: 'service view', url: `${service.url}/core/v1/evm/transact/view`, pid: service.pid },
    {
      name: 'slim process view',
      url: `http://127.0.0.1:${slimPort}/core/v1/evm/transact/view`,
      pid: slim.pid as number,
    },
    { name: 'bare proxy', url: `${proxy.url}/view`, pid: proxy.pid },
  ];
  await measureViewSides({ http, sides, body, headers: api.headers, rounds, roundMs });
} finally {
  await cleanup.run();
}
