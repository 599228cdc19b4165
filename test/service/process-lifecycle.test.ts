import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createPublicClient, createWalletClient, type Hex, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { describe, expect, it } from 'vitest';
import { loadStandardContracts } from '../../src/evm/contract-library/standard-contracts.ts';
import { KeyVault } from '../../src/platform/custody/key-vault.ts';
import { loadMasterKey } from '../../src/platform/custody/master-key.ts';
import { openStore } from '../../src/platform/db/open-store.ts';
import { findFreePort } from '../../src/platform/net/free-port.ts';
import { repoRoot } from '../../src/platform/repo-root.ts';
import { spawnServer, waitForHealthy } from '../support/server-process.ts';

const run = promisify(execFile);
// anvil's first well-known development account (public test key).
const anvilAccount = privateKeyToAccount(
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
);

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}

async function storedPrivateKeys(dataDir: string): Promise<Buffer[]> {
  const store = await openStore({ databaseUrl: undefined, dataDir, embedded: 'postgres', warn: () => {} });
  const db = store.db;
  try {
    const vault = new KeyVault(loadMasterKey(undefined, dataDir).key);
    const rows = await db.query<{
      address: string;
      key_id: string;
      key_nonce: Uint8Array;
      key_ciphertext: Uint8Array;
    }>('SELECT * FROM evm_accounts');
    return rows.map((row) =>
      vault.open(
        { keyId: row.key_id, nonce: Buffer.from(row.key_nonce), ciphertext: Buffer.from(row.key_ciphertext) },
        row.address,
      ),
    );
  } finally {
    await store.close();
  }
}

describe('the server process', () => {
  it('starts on a fresh data dir, stops cleanly on SIGTERM and keeps chain and store across a restart', {
    timeout: 180_000,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cg-proc-'));
    const port = await findFreePort();
    const url = `http://127.0.0.1:${port}`;
    const env = { CHAINGATE_DATA_DIR: dataDir, PORT: String(port) };
    const first = spawnServer(env);
    await waitForHealthy(url, first);

    const credentialsFile = join(dataDir, 'credentials.json');
    expect(statSync(credentialsFile).mode & 0o777).toBe(0o600);
    const credentials = JSON.parse(readFileSync(credentialsFile, 'utf8'));
    expect(Object.keys(credentials).sort()).toEqual(
      ['adminToken', 'apiKey', 'applicationId', 'devnetRpcUrl', 'sender', 'sorobanRpcUrl'].sort(),
    );
    expect(first.output()).toContain(credentials.apiKey);

    // The first-start sender is funded by the devnet faucet.
    const devnet = createPublicClient({ chain: foundry, transport: http(credentials.devnetRpcUrl) });
    expect(await devnet.getBalance({ address: credentials.sender })).toBeGreaterThan(0n);

    // Put something on the chain that a restart must keep.
    const wallet = createWalletClient({
      account: anvilAccount,
      chain: foundry,
      transport: http(credentials.devnetRpcUrl),
    });
    const erc20 = loadStandardContracts()[0];
    const deployHash = await wallet.deployContract({
      abi: erc20?.abi as never,
      bytecode: erc20?.bytecode as Hex,
      args: ['T', 'T', 5n],
    });
    const receipt = await devnet.waitForTransactionReceipt({ hash: deployHash });
    const contract = receipt.contractAddress as Hex;
    const recipient = '0x000000000000000000000000000000000000bEEF';
    await devnet.waitForTransactionReceipt({
      hash: await wallet.sendTransaction({ to: recipient, value: parseEther('1.5') }),
    });

    // The CLI talks to the running server's admin API, finding the admin token in the data dir.
    const cli = await run(process.execPath, [
      join(repoRoot(), 'bin/chaingate.js'),
      'app',
      'create',
      '--name',
      'cli-app',
      '--plan',
      'premium',
      '--url',
      url,
      '--data-dir',
      dataDir,
    ]);
    const created = JSON.parse(cli.stdout);
    expect(created).toMatchObject({
      applicationId: expect.any(String),
      apiKey: expect.stringMatching(/^cg_key_/),
    });
    const added = JSON.parse(
      (
        await run(process.execPath, [
          join(repoRoot(), 'bin/chaingate.js'),
          'sender',
          'add',
          created.applicationId,
          '--url',
          url,
          '--data-dir',
          dataDir,
        ])
      ).stdout,
    );
    expect(added.sender).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const listed = JSON.parse(
      (
        await run(process.execPath, [
          join(repoRoot(), 'bin/chaingate.js'),
          'app',
          'list',
          '--url',
          url,
          '--data-dir',
          dataDir,
        ])
      ).stdout,
    );
    expect(listed.map((a: { name: string }) => a.name)).toEqual(['default', 'cli-app']);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dataDir, 'devnet', 'anvil.pid'))).toBe(false);
    expect(existsSync(join(dataDir, 'devnet', 'state.json.gz'))).toBe(true);

    const second = spawnServer(env);
    await waitForHealthy(url, second);
    const after = JSON.parse(readFileSync(credentialsFile, 'utf8'));
    expect(after.applicationId).toBe(credentials.applicationId);
    const devnetAgain = createPublicClient({ chain: foundry, transport: http(after.devnetRpcUrl) });
    expect(await devnetAgain.getCode({ address: contract })).toBe(
      await devnetAgain.getCode({ address: contract }),
    );
    expect((await devnetAgain.getCode({ address: contract }))?.length).toBeGreaterThan(2);
    expect(await devnetAgain.getBalance({ address: recipient })).toBe(parseEther('1.5'));
    const chains = await fetch(`${url}/core/v1/evm/info/chains`, {
      headers: { authorization: `Bearer ${created.apiKey}`, 'x-application-svc': created.applicationId },
    });
    expect(chains.status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    // No private key the service generated appears in clear anywhere: store files, data dir, logs.
    const keys = await storedPrivateKeys(dataDir);
    expect(keys.length).toBe(3);
    const logs = first.output() + second.output();
    const files = filesUnder(dataDir).map((file) => readFileSync(file));
    for (const key of keys) {
      const hex = key.toString('hex');
      expect(logs.toLowerCase()).not.toContain(hex);
      for (const content of files) {
        expect(content.includes(key)).toBe(false);
        expect(content.toString('latin1').toLowerCase().includes(hex)).toBe(false);
      }
    }
  });

  it('ends with one clear line and a non-zero exit when the port is in use', async () => {
    const port = await findFreePort();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const server = spawnServer({
        CHAINGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'cg-proc-')),
        PORT: String(port),
      });
      expect(await server.exited).toBe(1);
      expect(server.stderr().trim().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`port ${port} .*already in use`)),
      ]);
    } finally {
      blocker.close();
    }
  });

  it('ends with one clear line for a bad config file and for a missing anvil binary', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-proc-'));
    const badConfig = join(dir, 'config.json');
    writeFileSync(badConfig, JSON.stringify({ evm: { networks: [{ chainId: 5 }] } }));
    const config = spawnServer({
      CHAINGATE_DATA_DIR: dir,
      PORT: String(await findFreePort()),
      CHAINGATE_CONFIG: badConfig,
    });
    expect(await config.exited).toBe(1);
    expect(config.stderr().trim().split('\n')).toEqual([expect.stringMatching(/config\.json: .*rpcUrls/)]);

    const anvil = spawnServer({
      CHAINGATE_DATA_DIR: dir,
      PORT: String(await findFreePort()),
      CHAINGATE_ANVIL_BIN: join(dir, 'no-anvil'),
    });
    expect(await anvil.exited).toBe(1);
    expect(anvil.stderr().trim().split('\n')).toEqual([expect.stringMatching(/anvil binary not found/)]);
  });
});
