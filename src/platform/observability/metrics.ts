import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'chaingate_' });
  return registry;
}

/** `GET /metrics` plus a request-duration histogram labelled by route pattern (never by raw URL). */
export const metricsPlugin = fp(
  async (app: FastifyInstance, options: { registry: Registry }) => {
    const duration = new Histogram({
      name: 'chaingate_http_request_duration_seconds',
      help: 'HTTP request duration by method, route and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [options.registry],
    });
    app.addHook('onResponse', async (request, reply) => {
      duration.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
    });
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      reply.header('content-type', options.registry.contentType);
      return options.registry.metrics();
    });
  },
  { name: 'chaingate-metrics', fastify: '5.x' },
);
