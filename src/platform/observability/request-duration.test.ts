import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestDurationHistogram } from './request-duration.ts';

const observations: Array<[string, string, number, number]> = [
  ['POST', '/core/v1/evm/transact/view', 200, 0.004],
  ['POST', '/core/v1/evm/transact/view', 200, 0.005],
  ['POST', '/core/v1/evm/transact/view', 200, 0.0051],
  ['POST', '/core/v1/evm/transact/view', 400, 0.3],
  ['GET', '/health', 200, 7],
  ['POST', '/core/v1/evm/transact/mutable', 201, 2.5],
  ['POST', '/core/v1/evm/transact/mutable', 201, 0.06],
];

describe('RequestDurationHistogram', () => {
  it('is exposed exactly as a prom-client Histogram with the same observations', async () => {
    const ours = new Registry();
    const histogram = new RequestDurationHistogram(ours);
    const theirs = new Registry();
    const reference = new Histogram({
      name: 'chaingate_http_request_duration_seconds',
      help: 'HTTP request duration by method, route and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [theirs],
    });
    for (const [method, route, status, seconds] of observations) {
      histogram.observe(method, route, status, seconds);
      reference.labels({ method, route, status: String(status) }).observe(seconds);
    }
    const exposed = await ours.metrics();
    expect(sorted(exposed)).toEqual(sorted(await theirs.metrics()));
    expect(exposed).toContain(
      'chaingate_http_request_duration_seconds_bucket{le="0.005",method="POST",route="/core/v1/evm/transact/view",status="200"} 2',
    );
  });

  it('shows nothing but its header before the first request', async () => {
    const registry = new Registry();
    new RequestDurationHistogram(registry);
    expect(sorted(await registry.metrics())).toEqual([
      '# HELP chaingate_http_request_duration_seconds HTTP request duration by method, route and status',
      '# TYPE chaingate_http_request_duration_seconds histogram',
    ]);
  });
});

function sorted(text: string): string[] {
  return text.split('\n').filter(Boolean).sort();
}
