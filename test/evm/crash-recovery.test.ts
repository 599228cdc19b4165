import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { expect, inject, it } from 'vitest';
import { findFreePort } from '../../src/platform/net/free-port.ts';
import { apiClient, deployErc20, waitForFinalStatus } from '../support/api-client.ts';
import { createDatabase } from '../support/postgres-server.ts';
import { spawnServer, waitForHealthy } from '../support/server-process.ts';
import { isContiguous, sendTransferBurst } from '../support/token-burst.ts';

const recipient = '0x000000000000000000000000000000000000c0de';

/**
 * Starts a server on a fresh data dir, deploys an ERC-20, and kills the server with SIGKILL once 60
 * transfers of a 200-transfer burst were accepted, while more requests are in flight.
 */
async function killDuringBurst(extraEnv: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'cg-crash-'));
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { CHAINGATE_DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', ...extraEnv };
  const first = spawnServer(env);
  await waitForHealthy(url, first);
  const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8'));
  const call = apiClient(url, {
    authorization: `Bearer ${credentials.apiKey}`,
    'x-application-svc': credentials.applicationId,
  });
  const token = await deployErc20(call, credentials.sender, ['Crash', 'CR', 1000]);
  const burst = await sendTransferBurst({
    clients: [call],
    token,
    sender: credentials.sender,
    recipient,
    count: 200,
    concurrency: 16,
    onAccepted: (_accepted, total) => {
      if (total === 60) first.child.kill('SIGKILL');
    },
  });
  if (first.child.exitCode === null) first.child.kill('SIGKILL');
  await first.exited;
  return { dataDir, env, url, call, credentials, token: token as string, burst };
}

it('loses and duplicates nothing when the server is killed (SIGKILL) during a burst of sends', {
  timeout: 240_000,
}, async () => {
  const databaseUrl = await createDatabase(inject('postgresUrl'));
  const { dataDir, env, url, call, credentials, token, burst } = await killDuringBurst({
    DATABASE_URL: databaseUrl,
  });
  expect(burst.accepted.length).toBeGreaterThanOrEqual(60);
  expect(burst.failed).toBeGreaterThan(0);

  const second = spawnServer(env);
  try {
    await waitForHealthy(url, second);
    for (const accepted of burst.accepted) {
      expect((await waitForFinalStatus(call, accepted.txHash, 31337, 60_000)).status).toBe('confirmed');
    }

    // Whatever was signed and stored before the kill is finished too; every live record is confirmed,
    // and the sender's nonces on chain are exactly the stored ones: contiguous, none twice.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const deadline = Date.now() + 60_000;
    let rows: Array<{ nonce: string; state: string; tx_hash: string }> = [];
    while (Date.now() < deadline) {
      rows = (
        await db.query(
          "SELECT nonce, state, tx_hash FROM evm_transactions WHERE sender = $1 AND nonce IS NOT NULL AND state <> 'error' ORDER BY nonce",
          [credentials.sender.toLowerCase()],
        )
      ).rows;
      if (rows.every((row) => row.state === 'confirmed')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await db.end();
    expect(rows.every((row) => row.state === 'confirmed')).toBe(true);
    const nonces = rows.map((row) => Number(row.nonce));
    expect(isContiguous(nonces)).toBe(true);
    expect(new Set(nonces).size).toBe(nonces.length);

    const chain = createPublicClient({
      chain: foundry,
      transport: http(JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')).devnetRpcUrl),
    });
    expect(await chain.getTransactionCount({ address: credentials.sender })).toBe(
      (nonces.at(-1) as number) + 1,
    );
    for (const accepted of burst.accepted) expect(rows.map((r) => r.tx_hash)).toContain(accepted.txHash);
    // Exactly once: the recipient holds one unit per confirmed transfer record (the deploy is nonce 0).
    const balance = await call('POST', '/core/v1/evm/transact/view', {
      contractAddress: token,
      blockchainNetwork: 31337,
      method: 'balanceOf',
      params: [recipient],
    });
    expect(balance.body).toEqual([rows.length - 1]);
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
});

it('loses nothing on the embedded store (PGlite) either when the server is killed during a burst', {
  timeout: 240_000,
}, async () => {
  const { dataDir, env, url, call, credentials, token, burst } = await killDuringBurst({
    CHAINGATE_EMBEDDED_STORE: 'pglite',
  });

  const second = spawnServer(env);
  try {
    await waitForHealthy(url, second);
    for (const accepted of burst.accepted) {
      expect((await waitForFinalStatus(call, accepted.txHash, 31337, 60_000)).status).toBe('confirmed');
    }
    const nonces = burst.accepted.map((accepted) => accepted.nonce);
    expect(new Set(nonces).size).toBe(nonces.length);
    // Every transfer after the deploy (nonce 0) moved one unit, none twice.
    const chain = createPublicClient({
      chain: foundry,
      transport: http(JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')).devnetRpcUrl),
    });
    // The balance first: more may be mined meanwhile, so the nonce read after it bounds it from above.
    const balance = await call('POST', '/core/v1/evm/transact/view', {
      contractAddress: token,
      blockchainNetwork: 31337,
      method: 'balanceOf',
      params: [recipient],
    });
    const sent = await chain.getTransactionCount({ address: credentials.sender });
    expect(balance.body[0]).toBeGreaterThanOrEqual(burst.accepted.length);
    expect(balance.body[0]).toBeLessThanOrEqual(sent - 1);
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
});

/** `balanceOf(holder)` by raw `eth_call`: the chain's own answer, not the service's. */
async function rawBalanceOf(rpcUrl: string, token: string, holder: string): Promise<bigint> {
  const data = `0x70a08231${holder.slice(2).toLowerCase().padStart(64, '0')}`;
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [{ to: token, data }, 'latest'],
    }),
  });
  const { result } = (await response.json()) as { result: string };
  return result === '0x' ? -1n : BigInt(result);
}

const recipientOf = (index: number) => `0x${(0xc0de0000 + index).toString(16).padStart(40, '0')}`;

it('puts back on chain what a crash of the whole process tree made the devnet forget, each transfer once', {
  timeout: 240_000,
}, async () => {
  const databaseUrl = await createDatabase(inject('postgresUrl'));
  const dataDir = mkdtempSync(join(tmpdir(), 'cg-crash-tree-'));
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  // Snapshots an hour apart: after the first one the devnet certainly forgets the deploy and the burst.
  const env = {
    CHAINGATE_DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    CHAINGATE_DEVNET_SNAPSHOT_SECONDS: '3600',
  };
  const first = spawnServer(env, { ownProcessGroup: true });
  await waitForHealthy(url, first);
  const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8'));
  const call = apiClient(url, {
    authorization: `Bearer ${credentials.apiKey}`,
    'x-application-svc': credentials.applicationId,
  });
  const token = await deployErc20(call, credentials.sender, ['Tree', 'TR', 1000]);
  const count = 150;
  const burst = await sendTransferBurst({
    clients: [call],
    token,
    sender: credentials.sender,
    recipient: recipientOf,
    count,
    concurrency: 32,
    onAccepted: (_accepted, total) => {
      // kill -9 of the whole group: the server and its anvil die together, nothing is saved.
      if (total === 60) process.kill(-(first.child.pid as number), 'SIGKILL');
    },
  });
  await first.exited;
  expect(burst.accepted.length).toBeGreaterThanOrEqual(60);

  const second = spawnServer(env);
  try {
    await waitForHealthy(url, second);
    const rpcUrl = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')).devnetRpcUrl as string;
    // Judged on chain: every accepted transfer lands, its recipient holding exactly one unit.
    const deadline = Date.now() + 90_000;
    let landed: bigint[] = [];
    while (Date.now() < deadline) {
      landed = await Promise.all(burst.accepted.map((a) => rawBalanceOf(rpcUrl, token, a.recipient)));
      if (landed.every((balance) => balance === 1n)) break;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(landed).toEqual(burst.accepted.map(() => 1n));
    expect(second.output()).toContain('recovered transactions the chain had lost');

    // Nothing twice, anywhere: every recipient of the burst holds 0 or 1, and the units on chain are
    // exactly the confirmed transfer records of the store, with contiguous nonces.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    let rows: Array<{ nonce: string; state: string; kind: string }> = [];
    const settle = Date.now() + 60_000;
    while (Date.now() < settle) {
      rows = (
        await db.query(
          "SELECT nonce, state, kind FROM evm_transactions WHERE sender = $1 AND nonce IS NOT NULL AND state <> 'error' ORDER BY nonce",
          [credentials.sender.toLowerCase()],
        )
      ).rows;
      if (rows.every((row) => row.state === 'confirmed')) break;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await db.end();
    expect(rows.every((row) => row.state === 'confirmed')).toBe(true);
    const nonces = rows.map((row) => Number(row.nonce));
    expect(isContiguous(nonces)).toBe(true);
    const all = await Promise.all(
      Array.from({ length: count }, (_, i) => rawBalanceOf(rpcUrl, token, recipientOf(i))),
    );
    expect(all.every((balance) => balance === 0n || balance === 1n)).toBe(true);
    const transfers = rows.filter((row) => row.kind === 'call').length;
    expect(all.reduce((sum, balance) => sum + balance, 0n)).toBe(BigInt(transfers));
    const chain = createPublicClient({ chain: foundry, transport: http(rpcUrl) });
    expect(await chain.getTransactionCount({ address: credentials.sender })).toBe(
      (nonces.at(-1) as number) + 1,
    );
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
});
