import { execFile } from 'node:child_process';
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../src/platform/net/free-port.ts';
import { repoRoot } from '../../src/platform/repo-root.ts';
import { apiClient, waitForFinalStatus } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';

const run = promisify(execFile);
let service: TestService;
let call: ReturnType<typeof apiClient>;
let busyPort: ReturnType<typeof createServer>;
let sorobanPort: number;

beforeAll(async () => {
  // The Soroban port asked for is taken: the service must move to another, as the devnet does.
  sorobanPort = await findFreePort();
  busyPort = createServer().listen(sorobanPort, '127.0.0.1');
  await new Promise((resolve) => busyPort.once('listening', resolve));
  service = await startTestService({ CHAINGATE_SOROBAN_PORT: String(sorobanPort) });
  call = apiClient(service.url, service.auth);
});
afterAll(async () => {
  await service?.close();
  busyPort?.close();
});

it('moves the Soroban network to a free port when its port is busy', () => {
  expect(service.credentials.sorobanRpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
  expect(new URL(service.credentials.sorobanRpcUrl as string).port).not.toBe(String(sorobanPort));
});

it('keeps every file of the data dir private (0600, directories 0700), the store and the chain state included', async () => {
  // Wait for a devnet snapshot to exist.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const open: string[] = [];
  let files = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) continue;
      files++;
      if ((stat.mode & 0o077) !== 0) open.push(`${path} ${(stat.mode & 0o777).toString(8)}`);
      if (stat.isDirectory()) walk(path);
    }
  };
  expect((lstatSync(service.dataDir).mode & 0o777).toString(8)).toBe('700');
  // The embedded store is the PostgreSQL server (not the PGlite fallback), its cluster inside.
  expect(existsSync(join(service.dataDir, 'postgres', 'cluster', 'PG_VERSION'))).toBe(true);
  walk(service.dataDir);
  expect(files).toBeGreaterThan(100); // the store’s cluster is in there
  expect(open.slice(0, 10)).toEqual([]);
});

describe('the OpenAPI document', () => {
  it('declares both credential headers on every customer endpoint, the admin token on admin ones, none on /health', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is read as plain JSON
    const doc: any = await (await fetch(`${service.url}/openapi.json`)).json();
    for (const [path, item] of Object.entries(
      doc.paths as Record<string, Record<string, { security?: unknown[] }>>,
    )) {
      for (const [method, operation] of Object.entries(item)) {
        if (
          path.startsWith('/core/') ||
          path.startsWith('/erc/') ||
          path.startsWith('/cwll/') ||
          path.startsWith('/stellar/')
        ) {
          expect(operation.security, `${method} ${path}`).toEqual([{ apiKey: [], applicationId: [] }]);
        } else if (path.startsWith('/admin/')) {
          expect(operation.security, `${method} ${path}`).toEqual([{ adminToken: [] }]);
        }
      }
    }
    expect(doc.paths['/health'].get.security).toEqual([]);
  });

  it('answers a spec with its constructor and the signatures of its functions and events', async () => {
    const specs = (await call('GET', '/core/v1/evm/info/specs')).body;
    const erc20 = specs.find((s: { name: string }) => s.name === 'ERC20');
    const answer = await call('GET', `/core/v1/evm/info/specs/${erc20.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body.constructor.inputs.map((input: { type: string }) => input.type)).toEqual([
      'string',
      'string',
      'uint256',
    ]);
    expect(answer.body.constructor.signature).toMatch(/^constructor\(string \w+, string \w+, uint256 \w+\)$/);
    expect(answer.body.functions.map((f: { signature: string }) => f.signature)).toContain(
      'transfer(address,uint256)',
    );
    expect(answer.body.events.map((e: { signature: string }) => e.signature)).toContain(
      'Transfer(address,address,uint256)',
    );
    expect(answer.body.deployable).toBe(true);
    expect((await call('GET', '/core/v1/evm/info/specs/999999')).status).toBe(404);
  });

  it('matches static path segments in any case, as a client calling /isContract does', async () => {
    const answer = await call(
      'GET',
      `/core/v1/evm/info/address/${service.credentials.sender}/isContract?network=31337`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ isContract: false });
    expect(
      (await call('GET', `/CORE/v1/EVM/info/address/${service.credentials.sender}/iscontract?network=31337`))
        .status,
    ).toBe(200);
  });
});

it('sends native coin through POST /core/v1/evm/chain/transfer, exactly, with the status endpoints', async () => {
  const recipient = '0x000000000000000000000000000000000000c0fe';
  const response = await fetch(`${service.url}/core/v1/evm/chain/transfer`, {
    method: 'POST',
    headers: { ...service.auth, 'content-type': 'application/json' },
    body: `{"sender":"${service.credentials.sender}","recipient":"${recipient}","blockchainNetwork":31337,"value":1234567890123456789,"myReference":"native1"}`,
  });
  const sent = (await response.json()) as { txHash: string };
  expect(response.status).toBe(201);
  expect((await waitForFinalStatus(call, sent.txHash)).status).toBe('confirmed');
  const chain = createPublicClient({
    chain: foundry,
    transport: http(service.credentials.devnetRpcUrl as string),
  });
  expect(await chain.getBalance({ address: recipient })).toBe(1234567890123456789n);
  const balance = await call('GET', `/core/v1/evm/chain/${recipient}/balance?network=31337`);
  expect(balance.body.balanceWei).toBe('1234567890123456789');
  const info = await call('GET', `/core/v1/evm/info/transaction/${sent.txHash}?network=31337`);
  expect(info.text).toContain('"value":1234567890123456789,');
  expect(info.body.transaction.valueWei).toBe('1234567890123456789');
  const notMine = await call('POST', '/core/v1/evm/chain/transfer', {
    sender: recipient,
    recipient,
    blockchainNetwork: 31337,
    value: 1,
  });
  expect(notMine.status).toBe(403);
});

describe('the CLI', () => {
  const cli = join(repoRoot(), 'bin/chaingate.js');
  it('prints its usage and exits 0 for --help', async () => {
    const { stdout } = await run(process.execPath, [cli, '--help']);
    expect(stdout).toContain('app list');
  });

  it('lists the applications as the README gives it: from a directory holding data/, with the server on PORT', async () => {
    const { port } = new URL(service.url);
    const { stdout } = await run(process.execPath, [cli, 'app', 'list'], {
      cwd: join(service.dataDir, '..'),
      env: { ...process.env, PORT: port, CHAINGATE_DATA_DIR: service.dataDir },
    });
    expect(JSON.parse(stdout).map((app: { name: string }) => app.name)).toEqual(['default']);
  });
});
