import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { ApplicationAuthenticator } from './applications/authentication.ts';
import { type Credentials, ensureFirstStartCredentials } from './applications/first-start.ts';
import { standardAbis } from './evm/contract-library/standard-abis.ts';
import { registerEngineMetrics } from './evm/engine/engine-metrics.ts';
import { replayRevertReason } from './evm/engine/replay-revert.ts';
import { TxEngine } from './evm/engine/tx-engine.ts';
import { findVisibleSpec } from './evm/specs/contract-specs.repository.ts';
import { seedStandardSpecs } from './evm/specs/seed-standard-specs.ts';
import { openIpfs } from './ipfs/ipfs-context.ts';
import type { Config } from './platform/config/config.ts';
import { KeyVault } from './platform/custody/key-vault.ts';
import { loadMasterKey } from './platform/custody/master-key.ts';
import { secureDataDir } from './platform/data-dir.ts';
import type { Database } from './platform/db/database.ts';
import { migrate } from './platform/db/migrate.ts';
import { openStore } from './platform/db/open-store.ts';
import { type AnvilDevnet, startAnvilDevnet } from './platform/devnet/anvil-devnet.ts';
import { Readiness } from './platform/health/readiness.ts';
import { isPortFree } from './platform/net/free-port.ts';
import {
  configuredNetwork,
  devnetNetwork,
  type EvmNetwork,
  EvmNetworks,
} from './platform/networks/evm-networks.ts';
import { buildStellarNetworks, type LocalStellarNetwork } from './platform/networks/stellar-networks.ts';
import { createMetricsRegistry } from './platform/observability/metrics.ts';
import type { Platform } from './platform/platform.ts';
import { BuildWorker } from './stellar/builds/build-worker.ts';
import { StellarEngine } from './stellar/engine/stellar-engine.ts';
import { startSorobanSandbox } from './stellar/sandbox/index.ts';
import { specForRecord } from './stellar/services/record-spec.ts';
import { startWallets } from './wallets/start-wallets.ts';

export type RunningService = {
  app: FastifyInstance;
  platform: Platform;
  url: string;
  /** Set on the first start only. */
  firstStartCredentials: Credentials | undefined;
  stop(): Promise<void>;
};

/** A Kubo node answers its RPC (`POST /api/v0/version`). */
async function kuboVersion(apiUrl: string): Promise<void> {
  const response = await fetch(`${apiUrl.replace(/\/+$/, '')}/api/v0/version`, {
    method: 'POST',
    signal: AbortSignal.timeout(2_000),
  });
  if (!response.ok) throw new Error(`kubo answered HTTP ${response.status}`);
}

/** The local Soroban network answers its `getHealth`. */
async function sorobanHealth(rpcUrl: string): Promise<void> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }),
    signal: AbortSignal.timeout(2_000),
  });
  if (!response.ok) throw new Error(`soroban answered HTTP ${response.status}`);
}

/**
 * Starts chaingate: listens first (so `/health` answers 503 while starting and a busy port fails
 * fast), then opens the store, migrates, starts the embedded devnet and marks the service ready.
 */
export async function startService(config: Config): Promise<RunningService> {
  const readiness = new Readiness();
  const metrics = createMetricsRegistry();
  const app = await buildApp({ logLevel: config.logLevel, readiness, metrics });
  const cleanups: Array<() => Promise<void>> = [async () => app.close()];
  const stop = async () => {
    readiness.ready = false;
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((error) => app.log.error({ err: error }, 'stop failed'));
  };

  try {
    secureDataDir(config.dataDir);
    const address = await app.listen({ port: config.port, host: config.host });
    readiness.set('store', 'starting');

    const store = await openStore({
      databaseUrl: config.databaseUrl,
      timeoutMs: config.databaseTimeoutMs,
      dataDir: config.dataDir,
      embedded: config.embeddedStore,
      warn: (object, message) => app.log.warn(object, message),
    });
    const db: Database = store.db;
    cleanups.push(() => store.close());
    // The embedded store unpacks its files with explicit modes; they are made private here.
    secureDataDir(config.dataDir);
    const applied = await migrate(db);
    if (applied.length > 0) app.log.info({ migrations: applied }, 'store migrated');
    readiness.set('store', 'up');
    readiness.addProbe({ name: 'store', embedded: true, check: () => db.query('SELECT 1') });

    const master = loadMasterKey(config.masterKey, config.dataDir);
    if (master.generated) {
      app.log.warn(
        { path: master.path },
        'CHAINGATE_MASTER_KEY is not set: generated a master key in the data dir',
      );
    }
    const vault = new KeyVault(master.key);

    const networks: EvmNetwork[] = [];
    let devnet: AnvilDevnet | undefined;
    if (config.devnet.enabled) {
      readiness.set('devnet', 'starting');
      devnet = await startAnvilDevnet({
        stateDir: join(config.dataDir, 'devnet'),
        port: config.devnet.port,
        blockTimeSeconds: config.devnet.blockTimeSeconds,
        binary: config.devnet.anvilBinary,
        snapshotSeconds: config.devnet.snapshotSeconds,
        onLog: (line) => app.log.warn({ component: 'devnet' }, line),
      });
      cleanups.push(() => (devnet as AnvilDevnet).stop());
      const { snapshots } = devnet;
      const devnetClient = devnetNetwork(devnet.rpcUrl, () => snapshots?.markDirty());
      networks.push(devnetClient);
      readiness.set('devnet', 'up');
      readiness.addProbe({ name: 'devnet', embedded: true, check: () => devnetClient.client.getChainId() });
    }
    for (const entry of config.file.evm?.networks ?? []) {
      const network = configuredNetwork(entry);
      networks.push(network);
      readiness.addProbe({
        name: `evm:${network.chainId}`,
        embedded: false,
        check: () => network.client.getChainId(),
      });
    }

    let sorobanRpcUrl: string | null = null;
    let localStellar: LocalStellarNetwork | null = null;
    if (config.soroban.enabled) {
      readiness.set('soroban', 'starting');
      const preferred = config.soroban.port;
      const sandbox = await startSorobanSandbox({
        dataDir: join(config.dataDir, 'soroban'),
        host: config.host,
        port: preferred !== 0 && (await isPortFree(preferred, config.host)) ? preferred : 0,
        ledgerCloseMs: config.soroban.ledgerCloseMs,
        logger: {
          info: (m) => app.log.info(m),
          warn: (m) => app.log.warn(m),
          error: (m) => app.log.error(m),
        },
      });
      cleanups.push(() => sandbox.stop());
      sorobanRpcUrl = sandbox.rpcUrl;
      localStellar = {
        rpcUrl: sandbox.rpcUrl,
        friendbotUrl: sandbox.friendbotUrl,
        passphrase: sandbox.networkPassphrase,
      };
      readiness.set('soroban', 'up');
      readiness.addProbe({ name: 'soroban', embedded: true, check: () => sorobanHealth(sandbox.rpcUrl) });
    }

    const platform: Platform = {
      config,
      db,
      vault,
      evm: new EvmNetworks(networks),
      stellar: buildStellarNetworks({
        entries: config.file.stellar?.networks ?? [],
        local: localStellar,
        timeoutMs: config.stellar.rpcTimeoutMs,
      }),
      metrics,
      logger: app.log,
      local: { devnetRpcUrl: devnet?.rpcUrl ?? null, sorobanRpcUrl },
    };
    app.platform = platform;
    app.applicationAuthenticator = new ApplicationAuthenticator(db);

    readiness.set('ipfs', 'starting');
    const ipfs = await openIpfs(platform, address);
    app.ipfs = ipfs;
    cleanups.push(() => ipfs.backend.close());
    readiness.set('ipfs', 'up');
    readiness.addProbe(
      config.ipfs.backend === 'kubo'
        ? { name: 'ipfs', embedded: false, check: () => kuboVersion(config.ipfs.kuboApiUrl as string) }
        : { name: 'ipfs', embedded: true, check: () => access(join(config.dataDir, 'ipfs'), constants.W_OK) },
    );

    await seedStandardSpecs(db);
    const firstStartCredentials = await ensureFirstStartCredentials(platform);
    if (firstStartCredentials) {
      // Printed once, on purpose (service contract): a newcomer needs them to make the first call.
      app.log.info(
        `first start: credentials written to credentials.json: ${JSON.stringify(firstStartCredentials)}`,
      );
    }

    const engine = new TxEngine(platform, {
      stuckAfterMs: config.engine.stuckAfterSeconds * 1000,
      refusedFailAfterSeconds: config.engine.refusedFailAfterSeconds,
      decodeRevert: async (row, receipt) => {
        const network = platform.evm.get(row.chain_id);
        if (!network) return 'execution reverted';
        const spec =
          row.spec_id === null ? undefined : await findVisibleSpec(db, row.application_id, row.spec_id);
        return replayRevertReason(network, row, receipt.blockNumber, [
          ...(spec ? [spec.abi] : []),
          ...standardAbis(),
        ]);
      },
    });
    app.evm = { platform, engine };
    registerEngineMetrics(metrics, db, app.log);
    engine.start();
    cleanups.push(() => engine.stop());

    const wallets = startWallets(platform, app.evm, address);
    app.wallets = wallets.context;
    cleanups.push(() => wallets.stop());
    const stellarEngine = new StellarEngine(platform, { specFor: (row) => specForRecord(platform, row) });
    app.stellar = { platform, engine: stellarEngine };
    stellarEngine.start();
    cleanups.push(() => stellarEngine.stop());
    const buildWorker = new BuildWorker({ platform, stellar: app.stellar }, app.log);
    app.stellarBuilds = { platform, stellar: app.stellar, kick: () => buildWorker.kick() };
    if (config.stellar.build.worker) {
      buildWorker.start();
      cleanups.push(() => buildWorker.stop());
    }

    readiness.ready = true;
    app.log.info({ address, store: store.description }, 'chaingate is ready');
    return { app, platform, url: address, firstStartCredentials, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
