import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from 'typebox';

type StartState = 'starting' | 'up' | 'down';

/** A live check of one component. An embedded one that fails makes the service unhealthy. */
export type HealthProbe = { name: string; embedded: boolean; check(): Promise<unknown> };

/** How long one probe may take before its component counts as down. */
const PROBE_TIMEOUT_MS = 2_000;
/** Answers are reused this long, so a monitor polling hard costs the nodes nothing. */
const PROBE_CACHE_MS = 1_000;

function withinTimeout(check: () => Promise<unknown>): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
    check().then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(false);
      },
    );
  });
}

/** What `/health` reports: each component, and whether the whole service is ready. */
export class Readiness {
  readonly components = new Map<string, StartState>();
  readonly #probes: HealthProbe[] = [];
  #cached: { at: number; report: Promise<HealthReport> } | undefined;
  ready = false;

  set(component: string, state: StartState): void {
    this.components.set(component, state);
  }

  addProbe(probe: HealthProbe): void {
    this.#probes.push(probe);
  }

  /** While starting: the start states. Once ready: every probe, live (cached for a second). */
  report(): Promise<HealthReport> {
    if (!this.ready) {
      return Promise.resolve({
        healthy: false,
        status: 'starting',
        components: Object.fromEntries(this.components),
      });
    }
    const now = Date.now();
    if (this.#cached && now - this.#cached.at < PROBE_CACHE_MS) return this.#cached.report;
    const report = (async () => {
      const results = await Promise.all(this.#probes.map((probe) => withinTimeout(probe.check)));
      const components: Record<string, string> = {};
      let healthy = true;
      for (const [index, probe] of this.#probes.entries()) {
        components[probe.name] = results[index] ? 'up' : 'down';
        if (!results[index] && probe.embedded) healthy = false;
      }
      return { healthy, status: healthy ? 'ok' : 'degraded', components };
    })();
    this.#cached = { at: now, report };
    return report;
  }
}

export type HealthReport = { healthy: boolean; status: string; components: Record<string, string> };

const open = new Set(['/health', '/openapi.json', '/metrics']);

const HealthBody = Type.Object({
  status: Type.String({ description: '`ok`, `starting`, or `degraded` (an embedded component is down)' }),
  components: Type.Record(Type.String(), Type.String(), {
    description:
      'each component: `store`, `devnet`, `soroban` (embedded: one down makes the answer 503) and every configured network (`evm:<chainId>`, reported only)',
  }),
});

/**
 * `GET /health`: 200 when the store and every embedded component answer, 503 while starting or while
 * one of them does not (each probed live, 2 s at most). Every other API call answers 503 while the
 * service is starting or stopping.
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
          summary: 'Health: 200 when the store and every embedded component answer, 503 otherwise',
          security: [],
          response: { 200: HealthBody, 503: HealthBody },
        },
      },
      async (_request, reply) => {
        const report = await readiness.report();
        return reply
          .status(report.healthy ? 200 : 503)
          .send({ status: report.status, components: report.components });
      },
    );
  },
  { name: 'chaingate-readiness', fastify: '5.x' },
);
