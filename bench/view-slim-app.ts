/**
 * The service's view path and nothing else, for `view-slim.ts`: the same Fastify options, schema
 * compilers, body parsing, error answers, metrics and application authentication as `src/app.ts`, and
 * only the EVM routes, on the service's database and devnet. No engine, devnet, Soroban, IPFS or
 * wallets run here, and no key is held (a throwaway master key).
 *
 * Run as a child process: `view-slim-app.ts <port> <databaseUrl> <devnetRpcUrl>`; prints "ready".
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import Fastify from 'fastify';
import { serverOptions } from '../src/app.ts';
import { requireApplicationAuth } from '../src/applications/application-auth.ts';
import { ApplicationAuthenticator } from '../src/applications/authentication.ts';
import { evmRoutes } from '../src/evm/evm.routes.ts';
import { loadConfig } from '../src/platform/config/config.ts';
import { KeyVault } from '../src/platform/custody/key-vault.ts';
import { openStore } from '../src/platform/db/open-store.ts';
import { errorHandlerPlugin } from '../src/platform/http/error-handler.ts';
import { registerRequestInput } from '../src/platform/http/request-input.ts';
import { registerSchemaCompilers } from '../src/platform/http/schema-compilers.ts';
import { devnetNetwork, EvmNetworks } from '../src/platform/networks/evm-networks.ts';
import { buildStellarNetworks } from '../src/platform/networks/stellar-networks.ts';
import { createMetricsRegistry, metricsPlugin } from '../src/platform/observability/metrics.ts';

const [port, databaseUrl, rpcUrl] = process.argv.slice(2) as [string, string, string];
const metrics = createMetricsRegistry();
const app = Fastify(serverOptions('warn'));
registerSchemaCompilers(app);
registerRequestInput(app);
app.decorate('platform', null as never);
app.decorate('applicationAuthenticator', null as never);
app.decorate('evm', null as never);
app.decorateRequest('application', null);
await app.register(errorHandlerPlugin);
await app.register(metricsPlugin, { registry: metrics });
await app.register(async (api) => {
  requireApplicationAuth(api);
  await api.register(evmRoutes, { prefix: '/core/v1/evm' });
});
const config = loadConfig({ DATABASE_URL: databaseUrl, CHAINGATE_DATA_DIR: tmpdir() });
const store = await openStore({
  databaseUrl,
  timeoutMs: config.databaseTimeoutMs,
  dataDir: config.dataDir,
  embedded: config.embeddedStore,
  warn: () => {},
});
const platform = {
  config,
  db: store.db,
  vault: new KeyVault(randomBytes(32)),
  evm: new EvmNetworks([devnetNetwork(rpcUrl)]),
  stellar: buildStellarNetworks({ entries: [], local: null, timeoutMs: 10_000 }),
  metrics,
  logger: app.log,
  local: { devnetRpcUrl: rpcUrl, sorobanRpcUrl: null },
};
app.platform = platform;
app.applicationAuthenticator = new ApplicationAuthenticator(store.db);
app.evm = { platform, engine: undefined as never };
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stdout.write('ready\n');
