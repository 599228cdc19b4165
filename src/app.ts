import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { Registry } from 'prom-client';
import { adminRoutes } from './applications/admin.routes.ts';
import { requireApplicationAuth } from './applications/application-auth.ts';
import { evmRoutes } from './evm/evm.routes.ts';
import { type Readiness, readinessPlugin } from './platform/health/readiness.ts';
import { errorHandlerPlugin } from './platform/http/error-handler.ts';
import { openApiPlugin } from './platform/http/openapi.ts';
import { metricsPlugin } from './platform/observability/metrics.ts';
import type { Platform } from './platform/platform.ts';
import { stellarRoutes } from './stellar/stellar.routes.ts';

export type BuildAppOptions = { logLevel: string; readiness: Readiness; metrics: Registry };

/** The HTTP application: shared plugins, then one encapsulated plugin per domain. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: options.logLevel,
      redact: {
        paths: ['req.headers.authorization', '*.apiKey', '*.adminToken', '*.pin'],
        censor: '[redacted]',
      },
    },
    routerOptions: { ignoreDuplicateSlashes: true },
    // Per-request info logs cost more than the view-call hot path itself; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 25 * 1024 * 1024,
    ajv: {
      customOptions: {
        coerceTypes: 'array',
        removeAdditional: false,
        allErrors: false,
        allowUnionTypes: true,
      },
    },
  });
  app.decorate('platform', null as unknown as Platform);
  app.decorate('applicationAuthenticator', null as never);
  app.decorate('evm', null as never);
  app.decorate('stellar', null as never);
  app.decorateRequest('application', null);

  await app.register(errorHandlerPlugin);
  await app.register(openApiPlugin);
  await app.register(readinessPlugin, { readiness: options.readiness });
  await app.register(metricsPlugin, { registry: options.metrics });

  await app.register(adminRoutes);
  await app.register(async (api) => {
    requireApplicationAuth(api);
    await api.register(evmRoutes, { prefix: '/core/v1/evm' });
    await api.register(stellarRoutes, { prefix: '/stellar/v1' });
  });
  return app;
}
