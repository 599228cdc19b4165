import { Networks } from '@stellar/stellar-sdk';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config/config-file.ts';
import { buildStellarNetworks, STELLAR_NETWORK_IDS } from './stellar-networks.ts';

const local = {
  rpcUrl: 'http://127.0.0.1:8000/',
  friendbotUrl: 'http://127.0.0.1:8000/friendbot',
  passphrase: Networks.STANDALONE,
};

describe('buildStellarNetworks', () => {
  it('knows testnet, futurenet and pubnet with their public endpoints, and the embedded network', () => {
    const networks = buildStellarNetworks({ entries: [], local, timeoutMs: 10_000 });
    expect(
      networks
        .all()
        .map((network) => network.networkId)
        .sort(),
    ).toEqual([100_000_000, 100_000_001, 100_000_002, 100_000_003]);
    expect(networks.get(STELLAR_NETWORK_IDS.testnet)).toMatchObject({
      passphrase: Networks.TESTNET,
      friendbotUrl: 'https://friendbot.stellar.org',
      isMainnet: false,
    });
    expect(networks.get(STELLAR_NETWORK_IDS.pubnet)).toMatchObject({
      passphrase: Networks.PUBLIC,
      friendbotUrl: null,
      isMainnet: true,
    });
    expect(networks.get(STELLAR_NETWORK_IDS.local)).toMatchObject({ isLocal: true, rpcUrl: local.rpcUrl });
    expect(networks.get(STELLAR_NETWORK_IDS.local)?.rpc.httpClient.defaults.timeout).toBe(10_000);
    expect(
      buildStellarNetworks({ entries: [], local: null, timeoutMs: 1 }).get(STELLAR_NETWORK_IDS.local),
    ).toBe(undefined);
  });

  it('lets the config file override a known network field by field and add others', () => {
    const networks = buildStellarNetworks({
      entries: [
        { networkId: STELLAR_NETWORK_IDS.testnet, rpcUrl: 'https://rpc.example.invalid', friendbotUrl: null },
        { networkId: 4242, name: 'mine', rpcUrl: 'http://10.0.0.7:8000', networkPassphrase: 'Mine ; 2025' },
      ],
      local: null,
      timeoutMs: 5_000,
    });
    expect(networks.get(STELLAR_NETWORK_IDS.testnet)).toMatchObject({
      rpcUrl: 'https://rpc.example.invalid',
      passphrase: Networks.TESTNET,
      friendbotUrl: null,
    });
    expect(networks.get(4242)).toMatchObject({
      name: 'mine',
      isMainnet: false,
      friendbotUrl: null,
      isLocal: false,
    });
  });

  it('refuses at start a new network without its RPC URL and passphrase', () => {
    expect(() =>
      buildStellarNetworks({ entries: [{ networkId: 5, rpcUrl: 'http://x' }], local: null, timeoutMs: 1 }),
    ).toThrow(ConfigError);
    expect(() =>
      buildStellarNetworks({
        entries: [{ networkId: 5, rpcUrl: 'ftp://x', networkPassphrase: 'p' }],
        local: null,
        timeoutMs: 1,
      }),
    ).toThrow(/http/);
  });
});
