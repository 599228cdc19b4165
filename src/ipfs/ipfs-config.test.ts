import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config/config.ts';

function configFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cg-ipfs-config-')), 'c.yaml');
  writeFileSync(path, text);
  return path;
}

describe('the ipfs section of the configuration', () => {
  it('defaults to the embedded backend and a 100 MiB limit', () => {
    expect(loadConfig({}).ipfs).toEqual({
      backend: 'embedded',
      kuboApiUrl: undefined,
      maxUploadBytes: 100 * 1024 * 1024,
      gatewayBaseUrl: undefined,
    });
  });

  it('reads the file, and the environment wins over it', () => {
    const path = configFile(
      'ipfs:\n  backend: kubo\n  kuboApiUrl: http://127.0.0.1:5001\n  maxUploadBytes: 1000\n  gatewayBaseUrl: https://gw.example.invalid\n',
    );
    expect(loadConfig({ CHAINGATE_CONFIG: path }).ipfs).toEqual({
      backend: 'kubo',
      kuboApiUrl: 'http://127.0.0.1:5001',
      maxUploadBytes: 1000,
      gatewayBaseUrl: 'https://gw.example.invalid',
    });
    expect(
      loadConfig({
        CHAINGATE_CONFIG: path,
        CHAINGATE_IPFS_BACKEND: 'embedded',
        CHAINGATE_IPFS_MAX_UPLOAD_BYTES: '5',
      }).ipfs,
    ).toMatchObject({ backend: 'embedded', maxUploadBytes: 5 });
  });

  it('refuses a bad setting at start, naming it', () => {
    expect(() => loadConfig({ CHAINGATE_IPFS_BACKEND: 'helia' })).toThrow(/CHAINGATE_IPFS_BACKEND/);
    expect(() => loadConfig({ CHAINGATE_IPFS_BACKEND: 'kubo' })).toThrow(/CHAINGATE_IPFS_KUBO_URL/);
    expect(() => loadConfig({ CHAINGATE_IPFS_BACKEND: 'kubo', CHAINGATE_IPFS_KUBO_URL: 'ftp://x' })).toThrow(
      /http\(s\)/,
    );
    expect(() => loadConfig({ CHAINGATE_IPFS_MAX_UPLOAD_BYTES: '1.5' })).toThrow(/whole number/);
    expect(() => loadConfig({ CHAINGATE_IPFS_MAX_UPLOAD_BYTES: '-1' })).toThrow(/positive/);
    expect(() => loadConfig({ CHAINGATE_CONFIG: configFile('ipfs:\n  backend: ipfs-cluster\n') })).toThrow(
      /ipfs/,
    );
    expect(() =>
      loadConfig({ CHAINGATE_CONFIG: configFile('ipfs:\n  gatewayBaseUrl: not a url\n') }),
    ).toThrow(/gatewayBaseUrl/);
  });
});
