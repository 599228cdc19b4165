import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from 'typebox';

/** What `/health` reports: each embedded component and whether the whole service is ready. */
export class Readiness {
  readonly components = new Map<string, 'starting' | 'up' | 'down'>();
  ready = false;

  set(component: string, state: 'starting' | 'up' | 'down'): void {
    this.components.set(component, state);
  }
}

const open = new Set(['/health', '/openapi.json', '/metrics']);

/**
 * `GET /health`: 200 once the store is migrated and every embedded component is up, 503 before. Every
 * other API call answers 503 while the service is starting or stopping.
 */
export const readinessPlugin = fp(
  async (app: FastifyInstance, options: { readiness: Readiness }) => {
    const { readiness } = options;
    // Callback style: this runs on every request, and once ready it must cost nothing.
    app.addHook('onRequest', (request, reply, done) => {
      if (readiness.ready) return done();
      const path = request.url.split('?')[0] ?? '';
      if (open.has(path) || path.startsWith('/docs')) return done();
      reply.status(503).send({
        statusCode: 503,
        code: 'CG_ERR_STARTING',
        error: 'Service Unavailable',
        message: 'the service is starting or stopping',
      });
    });
    app.get(
      '/health',
      {
        schema: {
          tags: ['service'],
          summary: 'Readiness: 200 when the store and every embedded component are up, 503 before',
          response: {
            200: Type.Object({
              status: Type.String(),
              components: Type.Record(Type.String(), Type.String()),
            }),
            503: Type.Object({
              status: Type.String(),
              components: Type.Record(Type.String(), Type.String()),
            }),
          },
        },
      },
      async (_request, reply) =>
        reply.status(readiness.ready ? 200 : 503).send({
          status: readiness.ready ? 'ok' : 'starting',
          components: Object.fromEntries(readiness.components),
        }),
    );
  },
  { name: 'chaingate-readiness', fastify: '5.x' },
);
