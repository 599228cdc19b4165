import { setTimeout as sleep } from 'node:timers/promises';
import { Gauge, type Registry } from 'prom-client';
import type { Queryable } from '../../platform/db/database.ts';
import { countOpenRecords, type OpenRecordCounts } from './open-records.repository.ts';

type Logger = { warn(object: object, message: string): void };

/** How long a scrape waits for the store's count before it leaves these gauges empty. */
const READ_DEADLINE_MS = 2_000;

/**
 * Gauges of the engine's open records, read from the store when `/metrics` is scraped (nothing on the
 * send path): how many wait per network and state, how many a node is refusing again (they are failed
 * once refused for CHAINGATE_REFUSED_FAIL_AFTER_SECONDS), and how old the oldest is. A store that fails
 * or stalls during a scrape leaves these gauges empty for that scrape; the other metrics are still served.
 */
export function registerEngineMetrics(registry: Registry, db: Queryable, logger: Logger): void {
  // The registry collects every metric at once: the three gauges share one read of the store, which
  // may take READ_DEADLINE_MS at most: a scrape must not wait for the store's own 10 s deadline.
  let reading: Promise<OpenRecordCounts[]> | undefined;
  const read = () => {
    reading ??= Promise.race([
      countOpenRecords(db),
      sleep(READ_DEADLINE_MS, undefined, { ref: false }).then(() => {
        throw new Error(`no answer within ${READ_DEADLINE_MS} ms`);
      }),
    ])
      .catch((error: unknown) => {
        logger.warn({ err: (error as Error).message }, 'metrics: the store did not count the open records');
        return [];
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  const gauge = (name: string, help: string, value: (row: OpenRecordCounts) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['chain_id', 'state'] as const,
      registers: [registry],
      async collect() {
        const rows = await read();
        this.reset();
        for (const row of rows) this.set({ chain_id: String(row.chain_id), state: row.state }, value(row));
      },
    });
  gauge(
    'chaingate_evm_open_transactions',
    'EVM transactions stored and not final yet, by network and state (signed: not yet known to be taken by a node)',
    (row) => row.records,
  );
  gauge(
    'chaingate_evm_refused_transactions',
    'Open EVM transactions a node refuses again in words that name no passing cause; failed (ERROR_CHAIN_LOST) once refused for CHAINGATE_REFUSED_FAIL_AFTER_SECONDS',
    (row) => row.refused,
  );
  gauge(
    'chaingate_evm_oldest_open_transaction_seconds',
    'Age of the oldest open EVM transaction, by network and state',
    (row) => row.oldest_seconds,
  );
}
