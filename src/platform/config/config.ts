import { resolve } from 'node:path';
import { parseBuildConfig, type SorobanBuildConfig } from './build-config.ts';
import { ConfigError, type ConfigFile, readConfigFile } from './config-file.ts';

export type Config = {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /** How long connecting to the store, waiting for a free connection, or one statement may take. */
  databaseTimeoutMs: number;
  /** Without DATABASE_URL: a PostgreSQL server run from the data dir, or PGlite in-process. */
  embeddedStore: 'postgres' | 'pglite';
  masterKey: string | undefined;
  adminToken: string | undefined;
  smtpUrl: string | undefined;
  logLevel: string;
  publicBaseUrl: string | undefined;
  file: ConfigFile;
  engine: { stuckAfterSeconds: number; refusedFailAfterSeconds: number };
  soroban: { enabled: boolean; port: number; ledgerCloseMs: number };
  devnet: {
    enabled: boolean;
    port: number;
    blockTimeSeconds: number;
    snapshotSeconds: number;
    anvilBinary: string | undefined;
  };
  /** Custodied wallets: how long a creation hash lives, and the sender of the e-mails. */
  wallets: { hashTtlSeconds: number; mailFrom: string };
  ipfs: IpfsConfig;
  /**
   * Stellar networks: how long a Soroban RPC or friendbot call may take before it counts as unreachable;
   * the toolchain and sandbox of project compilation.
   */
  stellar: { rpcTimeoutMs: number; build: SorobanBuildConfig };
};

export type IpfsConfig = {
  backend: 'embedded' | 'kubo';
  /** Set when `backend` is `kubo`. */
  kuboApiUrl: string | undefined;
  maxUploadBytes: number;
  /** Unset: the public base URL (or the server's own address). */
  gatewayBaseUrl: string | undefined;
};

const DEFAULT_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

type Env = Record<string, string | undefined>;

function parsePort(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`${name} must be a port number (0-65535), got '${value}'`);
  }
  return port;
}

function parsePositive(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0)
    throw new ConfigError(`${name} must be a positive number, got '${value}'`);
  return number;
}

function parseIpfs(env: Env, file: ConfigFile): IpfsConfig {
  const backend = env.CHAINGATE_IPFS_BACKEND || file.ipfs?.backend || 'embedded';
  if (backend !== 'embedded' && backend !== 'kubo') {
    throw new ConfigError(`CHAINGATE_IPFS_BACKEND must be 'embedded' or 'kubo', got '${backend}'`);
  }
  const kuboApiUrl = env.CHAINGATE_IPFS_KUBO_URL || file.ipfs?.kuboApiUrl || undefined;
  if (backend === 'kubo') {
    if (!kuboApiUrl)
      throw new ConfigError('the kubo IPFS backend needs CHAINGATE_IPFS_KUBO_URL (or ipfs.kuboApiUrl)');
    if (!URL.canParse(kuboApiUrl) || !/^https?:$/.test(new URL(kuboApiUrl).protocol)) {
      throw new ConfigError(`the Kubo RPC address must be an http(s) URL, got '${kuboApiUrl}'`);
    }
  }
  const maxUploadBytes = parsePositive(
    env.CHAINGATE_IPFS_MAX_UPLOAD_BYTES,
    'CHAINGATE_IPFS_MAX_UPLOAD_BYTES',
    file.ipfs?.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
  );
  if (!Number.isSafeInteger(maxUploadBytes)) {
    throw new ConfigError(
      `CHAINGATE_IPFS_MAX_UPLOAD_BYTES must be a whole number of bytes, got '${maxUploadBytes}'`,
    );
  }
  const gatewayBaseUrl = file.ipfs?.gatewayBaseUrl;
  if (gatewayBaseUrl !== undefined && !URL.canParse(gatewayBaseUrl)) {
    throw new ConfigError(`ipfs.gatewayBaseUrl must be an absolute URL, got '${gatewayBaseUrl}'`);
  }
  return { backend, kuboApiUrl, maxUploadBytes, gatewayBaseUrl };
}

function parseEmbeddedStore(value: string | undefined): 'postgres' | 'pglite' {
  if (value === undefined || value === '' || value === 'postgres') return 'postgres';
  if (value === 'pglite') return 'pglite';
  throw new ConfigError(`CHAINGATE_EMBEDDED_STORE must be postgres or pglite, got '${value}'`);
}

/** Builds the configuration from the environment (see the README's table) and the optional config file. */
export function loadConfig(env: Env = process.env): Config {
  const file: ConfigFile = env.CHAINGATE_CONFIG ? readConfigFile(env.CHAINGATE_CONFIG) : {};
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  return {
    host: env.HOST || '127.0.0.1',
    port: parsePort(env.PORT, 'PORT', 8080),
    dataDir: resolve(env.CHAINGATE_DATA_DIR || './data'),
    databaseUrl,
    databaseTimeoutMs:
      parsePositive(env.CHAINGATE_DATABASE_TIMEOUT_SECONDS, 'CHAINGATE_DATABASE_TIMEOUT_SECONDS', 10) * 1000,
    embeddedStore: parseEmbeddedStore(env.CHAINGATE_EMBEDDED_STORE),
    masterKey: env.CHAINGATE_MASTER_KEY || undefined,
    adminToken: env.CHAINGATE_ADMIN_TOKEN || undefined,
    smtpUrl: env.CHAINGATE_SMTP_URL || file.smtp?.url || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    publicBaseUrl: env.CHAINGATE_PUBLIC_BASE_URL || file.publicBaseUrl || undefined,
    file,
    soroban: {
      enabled: env.CHAINGATE_SOROBAN !== '0',
      port: parsePort(env.CHAINGATE_SOROBAN_PORT, 'CHAINGATE_SOROBAN_PORT', 8000),
      ledgerCloseMs: parsePositive(env.CHAINGATE_SOROBAN_LEDGER_MS, 'CHAINGATE_SOROBAN_LEDGER_MS', 1000),
    },
    stellar: {
      rpcTimeoutMs:
        parsePositive(
          env.CHAINGATE_STELLAR_RPC_TIMEOUT_SECONDS,
          'CHAINGATE_STELLAR_RPC_TIMEOUT_SECONDS',
          10,
        ) * 1000,
      build: parseBuildConfig(env, file),
    },
    engine: {
      stuckAfterSeconds: parsePositive(
        env.CHAINGATE_STUCK_AFTER_SECONDS,
        'CHAINGATE_STUCK_AFTER_SECONDS',
        30,
      ),
      refusedFailAfterSeconds: parsePositive(
        env.CHAINGATE_REFUSED_FAIL_AFTER_SECONDS,
        'CHAINGATE_REFUSED_FAIL_AFTER_SECONDS',
        180,
      ),
    },
    devnet: {
      enabled:
        env.CHAINGATE_DEVNET === undefined ? (file.devnet?.enabled ?? true) : env.CHAINGATE_DEVNET !== '0',
      port: parsePort(env.CHAINGATE_DEVNET_PORT, 'CHAINGATE_DEVNET_PORT', file.devnet?.port ?? 8545),
      blockTimeSeconds: parsePositive(
        env.CHAINGATE_DEVNET_BLOCK_TIME,
        'CHAINGATE_DEVNET_BLOCK_TIME',
        file.devnet?.blockTimeSeconds ?? 1,
      ),
      snapshotSeconds: parsePositive(
        env.CHAINGATE_DEVNET_SNAPSHOT_SECONDS,
        'CHAINGATE_DEVNET_SNAPSHOT_SECONDS',
        1,
      ),
      anvilBinary: env.CHAINGATE_ANVIL_BIN || undefined,
    },
    wallets: {
      hashTtlSeconds: parsePositive(
        env.CHAINGATE_WALLET_HASH_TTL_SECONDS,
        'CHAINGATE_WALLET_HASH_TTL_SECONDS',
        30 * 60,
      ),
      mailFrom: env.CHAINGATE_SMTP_FROM || file.smtp?.from || 'chaingate <no-reply@chaingate.invalid>',
    },
    ipfs: parseIpfs(env, file),
  };
}
