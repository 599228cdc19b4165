import type { MetricValueWithName, Registry } from 'prom-client';

const NAME = 'chaingate_http_request_duration_seconds';
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5] as const;

type Series = {
  labels: { method: string; route: string; status: string };
  /** Observations per bucket, each of its own bucket only (`get` makes them cumulative). */
  counts: number[];
  sum: number;
  total: number;
};

/**
 * The request-duration histogram, by method, route pattern and status, in the exposition format of a
 * prom-client `Histogram`. prom-client hashes the label set on every `observe`, even through a
 * labelled child, which was a measurable part of a proxied view call; here a request costs two map
 * lookups and one array increment, and the labels are formatted only when `/metrics` is read.
 */
export class RequestDurationHistogram {
  readonly name = NAME;
  readonly help = 'HTTP request duration by method, route and status';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  /** method + route → status code → series. */
  readonly #series = new Map<string, Map<number, Series>>();

  constructor(registry: Registry) {
    // A metric is anything with these fields and `get()`: the registry formats it like its own.
    registry.registerMetric(this as never);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    const routeKey = method + route;
    let byStatus = this.#series.get(routeKey);
    if (!byStatus) {
      byStatus = new Map();
      this.#series.set(routeKey, byStatus);
    }
    let series = byStatus.get(status);
    if (!series) {
      series = {
        labels: { method, route, status: String(status) },
        counts: BUCKETS.map(() => 0),
        sum: 0,
        total: 0,
      };
      byStatus.set(status, series);
    }
    let bucket = 0;
    while (bucket < BUCKETS.length && seconds > (BUCKETS[bucket] as number)) bucket++;
    if (bucket < BUCKETS.length) series.counts[bucket] = (series.counts[bucket] as number) + 1;
    series.sum += seconds;
    series.total++;
  }

  get(): Promise<{
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: MetricValueWithName<string>[];
  }> {
    const values: MetricValueWithName<string>[] = [];
    for (const byStatus of this.#series.values()) {
      for (const { labels, counts, sum, total } of byStatus.values()) {
        let cumulative = 0;
        BUCKETS.forEach((bound, index) => {
          cumulative += counts[index] as number;
          values.push({ metricName: `${NAME}_bucket`, labels: { le: bound, ...labels }, value: cumulative });
        });
        values.push({ metricName: `${NAME}_bucket`, labels: { le: '+Inf', ...labels }, value: total });
        values.push({ metricName: `${NAME}_sum`, labels, value: sum });
        values.push({ metricName: `${NAME}_count`, labels, value: total });
      }
    }
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values,
    });
  }
}
