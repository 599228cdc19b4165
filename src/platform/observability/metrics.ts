import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { RequestDurationHistogram } from './request-duration.ts';

export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'chaingate_' });
  return registry;
}

/** `GET /metrics` plus a request-duration histogram labelled by route pattern (never by raw URL). */
export const metricsPlugin = fp(
  async (app: FastifyInstance, options: { registry: Registry }) => {
    const duration = new RequestDurationHistogram(options.registry);
    app.addHook('onResponse', (request, reply, done) => {
      duration.observe(
        request.method,
        request.routeOptions.url ?? 'unmatched',
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      reply.header('content-type', options.registry.contentType);
      return options.registry.metrics();
    });
  },
  { name: 'chaingate-metrics', fastify: '5.x' },
);
