import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPublicClient, erc20Abi, http } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { processAlive } from '../../src/platform/child-processes.ts';
import { apiClient, deployErc20, transferToken, waitForFinalStatus } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';

// The embedded defaults run the devnet's anvil and a PostgreSQL server as child processes. One that died
// under a running service (the OOM killer, a stray kill) stayed dead: every send answered 503 until the
// service itself was restarted, and what was accepted before waited with it. Now each is started again.
let service: TestService;
let call: ReturnType<typeof apiClient>;
let token: string;
let closed = false;

beforeAll(async () => {
  service = await startTestService({
    CHAINGATE_SOROBAN: '0',
    LOG_LEVEL: 'error',
    CHAINGATE_EMBEDDED_STORE: 'postgres',
    DATABASE_URL: undefined,
  });
  call = apiClient(service.url, service.auth);
  token = await deployErc20(call, service.credentials.sender, ['Restart', 'RST', 1000]);
}, 120_000);
afterAll(async () => {
  if (!closed) await service?.close();
  else rmSync(service.dataDir, { recursive: true, force: true });
});

const recipient = (index: number) =>
  `0x${((0xdeadn << 144n) | BigInt(index)).toString(16).padStart(40, '0')}` as `0x${string}`;

/** Sends until one is accepted (the dependency may still be on its way back): the answer. */
async function acceptedTransfer(to: string) {
  for (let tries = 0; ; tries++) {
    const answer = await transferToken(call, { token, sender: service.credentials.sender, recipient: to });
    if (answer.status === 201 || tries > 120) return answer;
    await sleep(500);
  }
}

function pidOf(file: string): number {
  const text = readFileSync(join(service.dataDir, file), 'utf8');
  return text.startsWith('{') ? JSON.parse(text).pid : Number(text.split('\n')[0]);
}

/** Live processes whose command line names this service's data dir. */
function childrenOfDataDir(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(service.dataDir);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function balanceOf(address: `0x${string}`): Promise<bigint> {
  const chain = createPublicClient({ transport: http(service.credentials.devnetRpcUrl as string) });
  return chain.readContract({
    address: token as `0x${string}`,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  });
}

it('starts the devnet and the embedded PostgreSQL again when they die, and loses no accepted send', {
  timeout: 180_000,
}, async () => {
  const before = await Promise.all([0, 1, 2, 3, 4].map((index) => acceptedTransfer(recipient(index))));
  for (const answer of before) expect(answer.status, answer.text).toBe(201);

  // The chain dies with the transfers just sent, maybe before they were mined or saved.
  const anvil = pidOf('devnet/anvil.pid');
  process.kill(anvil, 'SIGKILL');
  const during = await acceptedTransfer(recipient(5));
  expect(during.status, during.text).toBe(201);

  // Then the store dies.
  const postgres = pidOf('postgres/cluster/postmaster.pid');
  process.kill(postgres, 'SIGKILL');
  const after = await acceptedTransfer(recipient(6));
  expect(after.status, after.text).toBe(201);

  for (const answer of [...before, during, after]) {
    const final = await waitForFinalStatus(call, answer.body.txHash, 31337, 60_000);
    expect(final.status).toBe('confirmed');
  }
  for (const index of [0, 1, 2, 3, 4, 5, 6]) expect(await balanceOf(recipient(index))).toBe(1n);
  expect(pidOf('devnet/anvil.pid')).not.toBe(anvil);
  expect(pidOf('postgres/cluster/postmaster.pid')).not.toBe(postgres);
  expect(processAlive(anvil)).toBe(false);

  // Nothing is left running once the service stops.
  await service.close({ keepDataDir: true });
  closed = true;
  expect(childrenOfDataDir()).toEqual([]);
});
