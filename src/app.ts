import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { Registry } from 'prom-client';
import { adminRoutes } from './applications/admin.routes.ts';
import { requireApplicationAuth } from './applications/application-auth.ts';
import { evmRoutes } from './evm/evm.routes.ts';
import { gatewayRoutes } from './ipfs/gateway.routes.ts';
import { ipfsRoutes } from './ipfs/ipfs.routes.ts';
import { type Readiness, readinessPlugin } from './platform/health/readiness.ts';
import {
  answerClientError,
  answerFrameworkError,
  errorHandlerPlugin,
} from './platform/http/error-handler.ts';
import { openApiPlugin } from './platform/http/openapi.ts';
import { JSON_BODY_LIMIT, registerRequestInput } from './platform/http/request-input.ts';
import { lazyRequestLogger } from './platform/http/request-logger.ts';
import { registerSchemaCompilers } from './platform/http/schema-compilers.ts';
import { metricsPlugin } from './platform/observability/metrics.ts';
import type { Platform } from './platform/platform.ts';
import { stellarRoutes } from './stellar/stellar.routes.ts';
import { tokenRoutes } from './tokens/tokens.routes.ts';
import { callbacksAdminRoutes } from './wallets/callbacks/callbacks-admin.routes.ts';
import { walletPageRoutes } from './wallets/page/page.routes.ts';
import { walletRoutes } from './wallets/wallets.routes.ts';

export type BuildAppOptions = { logLevel: string; readiness: Readiness; metrics: Registry };

/** Fastify's own options for the service (the view bench's slim process takes them too). */
export function serverOptions(logLevel: string) {
  return {
    logger: {
      level: logLevel,
      redact: {
        paths: ['req.headers.authorization', '*.apiKey', '*.adminToken', '*.pin'],
        censor: '[redacted]',
      },
    },
    // Static path parts match in any case (a client calls `/isContract`); `//` is `/`.
    routerOptions: { ignoreDuplicateSlashes: true, caseSensitive: false },
    // Per-request info logs cost more than the view-call hot path itself; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    bodyLimit: JSON_BODY_LIMIT,
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
  };
}

/** The HTTP application: shared plugins, then one encapsulated plugin per domain. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify(serverOptions(options.logLevel));
  registerSchemaCompilers(app);
  registerRequestInput(app);
  app.decorate('platform', null as unknown as Platform);
  app.decorate('applicationAuthenticator', null as never);
  app.decorate('evm', null as never);
  app.decorate('wallets', null as never);
  app.decorate('ipfs', null as never);
  app.decorate('stellar', null as never);
  app.decorateRequest('application', null);

  await app.register(errorHandlerPlugin);
  await app.register(openApiPlugin);
  await app.register(readinessPlugin, { readiness: options.readiness });
  await app.register(metricsPlugin, { registry: options.metrics });

  await app.register(adminRoutes);
  await app.register(callbacksAdminRoutes);
  await app.register(walletPageRoutes);
  await app.register(gatewayRoutes);
  await app.register(async (api) => {
    requireApplicationAuth(api);
    await api.register(evmRoutes, { prefix: '/core/v1/evm' });
    await api.register(walletRoutes);
    await api.register(ipfsRoutes);
    await api.register(tokenRoutes, { prefix: '/erc/v1' });
    await api.register(stellarRoutes, { prefix: '/stellar/v1' });
  });
  return app;
}
