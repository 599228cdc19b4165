import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServiceOnStallingDatabase } from '../support/service.ts';

// `/metrics` reads the engine's open-record gauges from the store on every scrape. A store that stalls
// must neither hold the scrape for the store's own deadline (here the default 10 s, longer than a
// scraper's usual 10 s timeout minus its margin) nor take the process's other metrics with it: the read
// has a 2 s deadline of its own, and the gauges are left empty for that scrape.
let stack: Awaited<ReturnType<typeof startServiceOnStallingDatabase>>;
beforeAll(async () => {
  stack = await startServiceOnStallingDatabase({
    CHAINGATE_SOROBAN: '0',
    CHAINGATE_DATABASE_TIMEOUT_SECONDS: '10',
  });
});
afterAll(() => stack?.close());

it('serves /metrics without the store’s gauges while the store stalls', { timeout: 30_000 }, async () => {
  const { service, relay } = stack;
  relay.stall();
  try {
    // Aborted well before the store's 10 s deadline: waiting for it would fail here.
    const during = await fetch(`${service.url}/metrics`, { signal: AbortSignal.timeout(7_000) });
    expect(during.status).toBe(200);
    const text = await during.text();
    expect(text).toContain('chaingate_http_request_duration_seconds');
    expect(text).toContain('# TYPE chaingate_evm_open_transactions gauge');
  } finally {
    relay.resume();
  }
  // The store answers again: so does the next scrape's read (no series while nothing is open).
  const after = await fetch(`${service.url}/metrics`);
  expect(after.status).toBe(200);
  expect(await after.text()).toContain('# TYPE chaingate_evm_refused_transactions gauge');
});
