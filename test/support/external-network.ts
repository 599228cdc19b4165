import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A config file whose only EVM network is chain 31337 at `rpcUrl` (an anvil the test started, or a
 * relay in front of one), funded through anvil_setBalance; `entry` overrides or adds fields.
 */
export function networkConfigFile(rpcUrl: string, entry: Record<string, unknown> = {}): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cg-network-')), 'config.json');
  const network = {
    chainId: 31337,
    name: 'test anvil',
    symbol: 'ETH',
    rpcUrls: [rpcUrl],
    confirmations: 0,
    devnetFaucet: true,
    ...entry,
  };
  writeFileSync(file, JSON.stringify({ evm: { networks: [network] } }));
  return file;
}

/** Environment for a service whose only EVM network is the config file's (no devnet, no Soroban). */
export function externalNetworkEnv(configFile: string): Record<string, string> {
  return { CHAINGATE_DEVNET: '0', CHAINGATE_SOROBAN: '0', CHAINGATE_CONFIG: configFile };
}
