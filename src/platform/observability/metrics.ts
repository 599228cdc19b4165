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
    // One labelled child per (method, route, status), kept: prom-client hashes the label object on
    // every observe otherwise, which was a measurable part of a proxied view call.
    const children = new Map<string, { observe(value: number): void }>();
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const key = `${request.method} ${route} ${reply.statusCode}`;
      let child = children.get(key);
      if (!child) {
        child = duration.labels({ method: request.method, route, status: String(reply.statusCode) });
        children.set(key, child);
      }
      child.observe(reply.elapsedTime / 1000);
      done();
    });
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      reply.header('content-type', options.registry.contentType);
      return options.registry.metrics();
    });
  },
  { name: 'chaingate-metrics', fastify: '5.x' },
);
