/**
 * A chaos run: ERC-20 transfers pushed through the service on its embedded defaults (embedded PostgreSQL,
 * the devnet) while the service is crashed, the chain reorganised, rolled back and its mempool dropped, at
 * random. Then, with the faults stopped, it waits for every accepted transfer to end and checks on chain
 * that nothing accepted was lost or sent twice and that no nonce is left open.
 *
 * Each transfer sends 1 unit to an address of its own, so the chain shows each request's effect: a
 * recipient holding 2 is a duplicate, one holding 0 after a 201 and `confirmed` is a loss. Half the
 * requests carry an `Idempotency-Key` and are retried with it until they get an answer; the others are
 * sent once, and an unanswered one may or may not have taken effect (0 or 1, never 2).
 *
 * `npm run chaos [minutes] [seed]` (default 5 minutes). Not part of the suite: it proves nothing in a fixed
 * time, it hunts. Prints the faults as they happen, then the checks; exits 1 if one fails.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPublicClient, http, type PublicClient } from 'viem';
import { findFreePort } from '../src/platform/net/free-port.ts';
import { apiClient, deployErc20 } from '../test/support/api-client.ts';
import { type ServerProcess, spawnServer, waitForHealthy } from '../test/support/server-process.ts';
import { type Fault, faultPicker } from './faults.ts';
import { type Check, type Outcome, summarise } from './outcomes.ts';

const minutes = Number(process.argv[2] ?? 5);
const seed = Number(process.argv[3] ?? Date.now() % 100_000);
// The load: requests in flight, and each one's pause before its next (CHAOS_WORKERS, CHAOS_PAUSE_MS).
const workers = Number(process.env.CHAOS_WORKERS ?? 8);
const pauseBetweenSendsMs = Number(process.env.CHAOS_PAUSE_MS ?? 120);
const settleTimeoutMs = Number(process.env.CHAOS_SETTLE_MINUTES ?? 8) * 60_000;

type Credentials = { apiKey: string; applicationId: string; sender: string; devnetRpcUrl: string };

const dataDir = mkdtempSync(join(tmpdir(), 'cg-chaos-'));
const port = await findFreePort();
const url = `http://127.0.0.1:${port}`;
const env = {
  CHAINGATE_DATA_DIR: dataDir,
  PORT: String(port),
  LOG_LEVEL: 'warn',
  CHAINGATE_SOROBAN: '0',
  // The suite's 0.2 s blocks unless asked (CHAOS_BLOCK_TIME=1 is `npm start`'s).
  ...(process.env.CHAOS_BLOCK_TIME ? { CHAINGATE_DEVNET_BLOCK_TIME: process.env.CHAOS_BLOCK_TIME } : {}),
};
const log = (line: string) => process.stdout.write(`[${new Date().toISOString().slice(11, 23)}] ${line}\n`);
log(
  `chaos: ${minutes} min, seed ${seed}, ${workers} in flight, ${pauseBetweenSendsMs} ms pauses, data dir ${dataDir}`,
);

let server = spawnServer(env, { ownProcessGroup: true });
const orphans = new Set<number>();
const serverLogs: string[] = [];
await waitForHealthy(url, server, 120_000);
const credentials = (): Credentials => JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8'));
const first = credentials();
const call = apiClient(url, {
  authorization: `Bearer ${first.apiKey}`,
  'x-application-svc': first.applicationId,
});
const chain = (): PublicClient => createPublicClient({ transport: http(credentials().devnetRpcUrl) });
const token = await deployErc20(call, first.sender, ['Chaos', 'CH', 1_000_000_000]);
log(`token ${token}, sender ${first.sender}`);
// The deployment must lie deeper than any fault reaches before the faults start.
await sleep(10_000);

const outcomes = new Map<number, Outcome>();
const recipientOf = (index: number) =>
  `0x${((0xc4a05n << 120n) | BigInt(index)).toString(16).padStart(40, '0')}` as `0x${string}`;
const idempotencyKey = (index: number) => `chaos-${seed}-${index}`;

let stopping = false;
let serverDown = false;
let next = 0;
const answerCounts = new Map<string, number>();
const count = (what: string) => answerCounts.set(what, (answerCounts.get(what) ?? 0) + 1);

/** One request per index; keyed ones are asked again with their key until the service answers. */
async function send(index: number): Promise<Outcome> {
  const keyed = index % 2 === 0;
  const headers: Record<string, string> = keyed ? { 'idempotency-key': idempotencyKey(index) } : {};
  const body = {
    contractAddress: token,
    sender: first.sender,
    blockchainNetwork: 31337,
    method: 'transfer',
    params: [recipientOf(index), 1],
  };
  for (let attempt = 1; ; attempt++) {
    let status: number;
    let answer: { txHash?: string; nonce?: number; code?: string; message?: string } = {};
    try {
      const response = await call('POST', '/core/v1/evm/transact/mutable', body, headers);
      status = response.status;
      answer = response.body ?? {};
    } catch {
      status = 0;
    }
    count(status === 0 ? 'no answer' : `${status}${answer.code ? ` ${answer.code}` : ''}`);
    if (status === 201)
      return { kind: 'accepted', keyed, txHash: answer.txHash as string, attempts: attempt };
    const retryable = status === 0 || status >= 500 || (status === 409 && answer.code?.includes('IN_USE'));
    if (!retryable)
      return { kind: 'refused', keyed, status, code: answer.code ?? '', message: answer.message ?? '' };
    if (!keyed || stopping) return { kind: 'unanswered', keyed, status };
    await sleep(500);
  }
}

async function worker() {
  while (!stopping) {
    if (serverDown) {
      await sleep(100);
      continue;
    }
    const index = next++;
    outcomes.set(index, { kind: 'pending', keyed: index % 2 === 0 });
    outcomes.set(index, await send(index));
    await sleep(pauseBetweenSendsMs);
  }
}

async function restart(): Promise<void> {
  server = spawnServer(env, { ownProcessGroup: true });
  await waitForHealthy(url, server, 180_000);
  serverDown = false;
}

async function inflict(fault: Fault, server: ServerProcess): Promise<void> {
  const rpc = (method: string, params: unknown[]) =>
    chain().request({ method: method as never, params: params as never });
  switch (fault.kind) {
    case 'crash': {
      // The whole tree at once, as a power cut: server, anvil and the embedded PostgreSQL.
      serverLogs.push(server.stderr());
      process.kill(-(server.child.pid as number), 'SIGKILL');
      await server.exited;
      await sleep(fault.downMs);
      await restart();
      return;
    }
    case 'server-only': {
      // Only the server: its anvil and PostgreSQL are left running, as orphans, for the next start to meet.
      serverLogs.push(server.stderr());
      server.child.kill('SIGKILL');
      await server.exited;
      orphans.add(server.child.pid as number);
      await sleep(fault.downMs);
      await restart();
      return;
    }
    case 'reorg':
      await rpc('anvil_reorg', [fault.depth, []]);
      return;
    case 'rollback':
      await rpc('anvil_rollback', [fault.depth]);
      return;
    case 'drop-mempool':
      await rpc('anvil_dropAllTransactions', []);
      return;
    case 'devnet-kill': {
      // The chain dies under a running service: its anvil alone.
      const { pid } = JSON.parse(readFileSync(join(dataDir, 'devnet', 'anvil.pid'), 'utf8'));
      process.kill(pid, 'SIGKILL');
      return;
    }
    case 'store-kill': {
      // The store dies under a running service: the embedded PostgreSQL's postmaster.
      const pid = Number(
        readFileSync(join(dataDir, 'postgres', 'cluster', 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      process.kill(pid, 'SIGKILL');
      return;
    }
  }
}

// CHAOS_FAULTS=crash,reorg,… limits the faults to those kinds.
const pick = faultPicker(
  seed,
  process.env.CHAOS_FAULTS ? new Set(process.env.CHAOS_FAULTS.split(',')) : undefined,
);
const started = Date.now();
const load = Array.from({ length: workers }, worker);
const faultsSeen: string[] = [];
while (Date.now() - started < minutes * 60_000) {
  const fault = pick();
  await sleep(fault.afterMs);
  if (fault.kind === 'crash' || fault.kind === 'server-only') serverDown = true;
  log(`fault: ${JSON.stringify(fault)} (sent so far ${next})`);
  try {
    await inflict(fault, server);
    faultsSeen.push(fault.kind);
  } catch (error) {
    log(`fault ${fault.kind} failed: ${(error as Error).message.split('\n')[0]}`);
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      log(`server exited; output:\n${server.output().slice(-4000)}`);
      break;
    }
  }
}
stopping = true;
await Promise.all(load);
log(`faults stopped after ${faultsSeen.length} (${summariseKinds(faultsSeen)}); ${next} requests sent`);

let checks: Check[];
try {
  checks = await summarise({
    outcomes,
    call,
    rpcUrl: credentials().devnetRpcUrl,
    token,
    sender: first.sender as `0x${string}`,
    recipientOf,
    settleTimeoutMs,
    log,
  });
} catch (error) {
  checks = [
    {
      name: 'the service and the chain answer at the end',
      pass: false,
      detail: String(error).split('\n')[0] as string,
    },
  ];
}
log(`answers: ${[...answerCounts].map(([what, n]) => `${what} ×${n}`).join(', ')}`);
serverLogs.push(server.stderr());
const errorLines = serverLogs
  .join('\n')
  .split('\n')
  .filter((line) => /"level":(50|60)/.test(line));
log(`server error lines: ${errorLines.length}`);
for (const line of errorLines.slice(0, 10)) log(`  ${line.slice(0, 400)}`);

process.kill(-(server.child.pid as number), 'SIGKILL');
await server.exited;
for (const pid of orphans) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // its group is gone
  }
}
const failed = checks.filter((check) => !check.pass);
for (const check of checks) log(`${check.pass ? 'PASS' : 'FAIL'} ${check.name}: ${check.detail}`);
if (failed.length === 0) rmSync(dataDir, { recursive: true, force: true });
log(failed.length === 0 ? 'all checks pass' : `${failed.length} checks failed (data dir kept: ${dataDir})`);
process.exit(failed.length === 0 ? 0 : 1);

function summariseKinds(kinds: string[]): string {
  const counts = new Map<string, number>();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${kind} ×${n}`).join(', ');
}
