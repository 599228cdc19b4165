import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configuredNetwork } from '../networks/evm-networks.ts';
import { loadConfig } from './config.ts';
import { ConfigError } from './config-file.ts';

function configFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cg-config-')), name);
  writeFileSync(path, text);
  return path;
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      databaseUrl: undefined,
      databaseTimeoutMs: 10_000,
      logLevel: 'info',
    });
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.devnet).toEqual({
      enabled: true,
      port: 8545,
      blockTimeSeconds: 1,
      snapshotSeconds: 1,
      anvilBinary: undefined,
    });
  });

  it('reads networks from a YAML file and completes them from the catalogue', () => {
    const path = configFile(
      'c.yaml',
      'evm:\n  networks:\n    - chainId: 11155111\n      rpcUrls: [http://127.0.0.1:1]\n',
    );
    const config = loadConfig({ CHAINGATE_CONFIG: path });
    const network = configuredNetwork(config.file.evm?.networks?.[0] as never);
    expect(network).toMatchObject({
      chainId: 11155111,
      name: 'Sepolia',
      symbol: 'ETH',
      isMainnet: false,
      confirmations: 2,
      rpcFailoverCooldownMs: 30_000,
    });
  });

  it('gives a network its own failover cooldown, and refuses a negative one', () => {
    const entry = (cooldown: number) =>
      JSON.stringify({
        evm: {
          networks: [
            {
              chainId: 1,
              rpcUrls: ['http://127.0.0.1:1', 'http://127.0.0.1:2'],
              rpcFailoverCooldownMs: cooldown,
            },
          ],
        },
      });
    const config = loadConfig({ CHAINGATE_CONFIG: configFile('f.json', entry(5_000)) });
    expect(configuredNetwork(config.file.evm?.networks?.[0] as never).rpcFailoverCooldownMs).toBe(5_000);
    expect(() => loadConfig({ CHAINGATE_CONFIG: configFile('g.json', entry(-1)) })).toThrow(
      /g\.json: evm\.networks\.0\.rpcFailoverCooldownMs must be >= 0/,
    );
  });

  it('names the file and key of a bad config', () => {
    const path = configFile('c.json', JSON.stringify({ evm: { networks: [{ chainId: 'x', rpcUrls: [] }] } }));
    expect(() => loadConfig({ CHAINGATE_CONFIG: path })).toThrow(
      /c\.json: evm\.networks\.0\.chainId must be integer/,
    );
    const unknown = configFile('u.json', JSON.stringify({ evmm: {} }));
    expect(() => loadConfig({ CHAINGATE_CONFIG: unknown })).toThrow(/evmm/);
    const broken = configFile('b.json', '{');
    expect(() => loadConfig({ CHAINGATE_CONFIG: broken })).toThrow(/not valid JSON/);
    expect(() => loadConfig({ CHAINGATE_CONFIG: '/nonexistent.json' })).toThrow(ConfigError);
  });

  it('rejects bad environment values with the variable name', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT must be a port number/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ CHAINGATE_DATABASE_TIMEOUT_SECONDS: '0' })).toThrow(
      /CHAINGATE_DATABASE_TIMEOUT_SECONDS must be a positive number/,
    );
    expect(loadConfig({ CHAINGATE_DATABASE_TIMEOUT_SECONDS: '2.5' }).databaseTimeoutMs).toBe(2_500);
  });

  it('requires name and symbol for a chain the catalogue does not know', () => {
    expect(() => configuredNetwork({ chainId: 999999, rpcUrls: ['http://127.0.0.1:1'] })).toThrow(
      /name and symbol/,
    );
  });
});
