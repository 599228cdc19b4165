import type { FastifyBaseLogger } from 'fastify';
import type { Registry } from 'prom-client';
import type { Config } from './config/config.ts';
import type { KeyVault } from './custody/key-vault.ts';
import type { Database } from './db/database.ts';
import type { EvmNetworks } from './networks/evm-networks.ts';
import type { StellarNetworks } from './networks/stellar-networks.ts';

/** Shared machinery every domain plugin reaches through `app.platform`. */
export type Platform = {
  config: Config;
  db: Database;
  vault: KeyVault;
  evm: EvmNetworks;
  stellar: StellarNetworks;
  metrics: Registry;
  logger: FastifyBaseLogger;
  /** URLs of the embedded local networks, for credentials.json and the docs. */
  local: { devnetRpcUrl: string | null; sorobanRpcUrl: string | null };
};

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform;
  }
}
