import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, inject, it } from 'vitest';
import { findFreePort } from '../../src/platform/net/free-port.ts';
import { startAnvil } from '../support/anvil.ts';
import { apiClient, requestErc20Deploy, waitForFinalStatus } from '../support/api-client.ts';
import { externalNetworkEnv, networkConfigFile } from '../support/external-network.ts';
import { createDatabase } from '../support/postgres-server.ts';
import { spawnServer, waitForHealthy } from '../support/server-process.ts';
import { isContiguous, sendTransferBurst } from '../support/token-burst.ts';

it('two server processes on one PostgreSQL never hand out the same nonce for one sender', {
  timeout: 180_000,
}, async () => {
  const anvil = await startAnvil({ blockTime: 1 });
  const databaseUrl = await createDatabase(inject('postgresUrl'));
  const configFile = networkConfigFile(anvil.rpcUrl, { name: 'shared anvil' });
  const shared = {
    DATABASE_URL: databaseUrl,
    ...externalNetworkEnv(configFile),
    CHAINGATE_MASTER_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
  };
  const dirA = mkdtempSync(join(tmpdir(), 'cg-two-a-'));
  const dirB = mkdtempSync(join(tmpdir(), 'cg-two-b-'));
  const [portA, portB] = [await findFreePort(), await findFreePort()];
  const a = spawnServer({ ...shared, CHAINGATE_DATA_DIR: dirA, PORT: String(portA) });
  const b = spawnServer({ ...shared, CHAINGATE_DATA_DIR: dirB, PORT: String(portB) });
  try {
    await waitForHealthy(`http://127.0.0.1:${portA}`, a);
    await waitForHealthy(`http://127.0.0.1:${portB}`, b);
    // Whichever process bootstrapped first wrote the credentials; the other found the store ready.
    const written = [dirA, dirB].filter((dir) => existsSync(join(dir, 'credentials.json')));
    expect(written.length).toBe(1);
    const credentials = JSON.parse(readFileSync(join(written[0] as string, 'credentials.json'), 'utf8'));
    const headers = {
      authorization: `Bearer ${credentials.apiKey}`,
      'x-application-svc': credentials.applicationId,
    };
    const callA = apiClient(`http://127.0.0.1:${portA}`, headers);
    const callB = apiClient(`http://127.0.0.1:${portB}`, headers);
    const deploy = await requestErc20Deploy(callA, credentials.sender, ['Two', 'TWO', 1000]);
    expect(deploy.status).toBe(201);
    await waitForFinalStatus(callA, deploy.body.txHash);

    const burst = await sendTransferBurst({
      clients: [callA, callB],
      token: deploy.body.contractAddress,
      sender: credentials.sender,
      recipient: '0x000000000000000000000000000000000000abcd',
      count: 120,
      concurrency: 16,
    });
    expect(burst.failed).toBe(0);
    const nonces = burst.accepted.map((accepted) => accepted.nonce);
    expect(new Set(nonces).size).toBe(120);
    expect(isContiguous([deploy.body.nonce, ...nonces])).toBe(true);
    for (const accepted of burst.accepted) {
      expect((await waitForFinalStatus(callB, accepted.txHash, 31337, 60_000)).status).toBe('confirmed');
    }
  } finally {
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    await Promise.all([a.exited, b.exited]);
    await anvil.stop();
  }
});
