import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SorobanSandbox } from '../../../src/stellar/sandbox/index.ts';
import { apiClient } from '../../support/api-client.ts';
import { startTestService, type TestService } from '../../support/service.ts';
import type { RpcRelay } from './rpc-relay.ts';

/**
 * A service that knows only the Stellar networks of `networks` (config file entries), with no
 * embedded networks and a 1 s deadline on every Soroban RPC call.
 */
export async function startServiceWithNetworks(
  networks: object[],
): Promise<{ service: TestService; call: ReturnType<typeof apiClient> }> {
  const config = join(mkdtempSync(join(tmpdir(), 'cg-stellar-')), 'config.json');
  writeFileSync(config, JSON.stringify({ stellar: { networks } }));
  const service = await startTestService({
    CHAINGATE_DEVNET: '0',
    CHAINGATE_SOROBAN: '0',
    CHAINGATE_CONFIG: config,
    CHAINGATE_STELLAR_RPC_TIMEOUT_SECONDS: '1',
    LOG_LEVEL: 'error',
  });
  return { service, call: apiClient(service.url, service.auth) };
}

/** The config entry of network `networkId`: `sandbox` reached through `relay`. */
export function relayedNetwork(networkId: number, relay: RpcRelay, sandbox: SorobanSandbox) {
  return {
    networkId,
    rpcUrl: relay.url,
    networkPassphrase: sandbox.networkPassphrase,
    friendbotUrl: `${relay.url}friendbot`,
  };
}

/** Closes a ledger of `sandbox` every 250 ms until `work` ends (a request that waits for a ledger needs it). */
export async function whileClosing<T>(sandbox: SorobanSandbox, work: Promise<T>): Promise<T> {
  let done = false;
  const closer = (async () => {
    while (!done) {
      await sandbox.closeLedger();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  try {
    return await work;
  } finally {
    done = true;
    await closer;
  }
}
