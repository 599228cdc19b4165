import pg from 'pg';
import { expect, it } from 'vitest';
import { serverOnPostgres } from './support/server-on-postgres.ts';
import { deployAndWait, invokeAndWait, LOCAL, savedId, waitForStellar } from './support/stellar-api.ts';
import { fixture } from './support/test-contracts.ts';

const BURST = 120;
const CONCURRENCY = 16;
const KILL_AFTER = 40;

/**
 * Kills the server (SIGKILL, with the embedded local network inside it) during a burst of
 * invocations of a counter contract, restarts it on the same data dir and store, and checks that
 * every accepted invocation lands, every stored one is finished, sequence numbers are contiguous and
 * unique, and the counter moved exactly once per successful record.
 */
it('loses and duplicates no invocation when the server is killed during a burst', {
  timeout: 300_000,
}, async () => {
  const { url, databaseUrl, headers, call, first, restart } = await serverOnPostgres();
  const id = await savedId(url, headers, fixture('increment_events.wasm'), 'counter');
  const counter = await deployAndWait(call, id);
  // The first increment adds the counter to the instance (it grows); later ones keep its size, so the
  // burst's simulations, all made before any of them lands, stay within their declared resources.
  expect((await invokeAndWait(call, counter, 'increment', [])).receipt.result).toBe(1);

  const accepted: string[] = [];
  let failed = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < BURST) {
        next++;
        try {
          const answer = await call('POST', '/stellar/v1/contract/invoke', {
            blockchainNetwork: LOCAL,
            address: counter,
            method: 'increment',
            params: [],
            restore: false,
            myReference: 'burst',
          });
          if (answer.status === 200) {
            accepted.push(answer.body.txHash);
            if (accepted.length === KILL_AFTER) first.child.kill('SIGKILL');
          } else failed++;
        } catch {
          failed++;
        }
      }
    }),
  );
  if (first.child.exitCode === null) first.child.kill('SIGKILL');
  await first.exited;
  expect(accepted.length).toBeGreaterThanOrEqual(KILL_AFTER);
  expect(failed).toBeGreaterThan(0);

  const second = await restart();
  const db = new pg.Client({ connectionString: databaseUrl });
  try {
    for (const txHash of accepted) {
      const info = await waitForStellar(call, txHash, LOCAL, 60_000);
      expect(
        info.status,
        `${txHash}: ${JSON.stringify(info.errorInfo)}\n${second.output().slice(-3000)}`,
      ).toBe('SUCCESS');
    }
    // Whatever was stored before the kill is finished too: no record stays open.
    await db.connect();
    const deadline = Date.now() + 60_000;
    let rows: Array<{ sequence: string; state: string; tx_hash: string; kind: string }> = [];
    while (Date.now() < deadline) {
      rows = (
        await db.query(
          "SELECT sequence, state, tx_hash, kind FROM stellar_transactions WHERE network_id = $1 AND state <> 'error' ORDER BY sequence",
          [LOCAL],
        )
      ).rows;
      if (rows.every((row) => row.state === 'success')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(rows.every((row) => row.state === 'success')).toBe(true);
    const sequences = rows.map((row) => BigInt(row.sequence));
    expect(new Set(sequences).size).toBe(sequences.length);
    for (const [index, sequence] of sequences.entries()) {
      if (index > 0) expect(sequence).toBe((sequences[index - 1] as bigint) + 1n);
    }
    for (const txHash of accepted) expect(rows.map((row) => row.tx_hash)).toContain(txHash);

    // Exactly once: the counter moved once per successful increment record.
    const increments = rows.filter((row) => row.kind === 'invoke').length;
    expect(increments).toBeGreaterThanOrEqual(accepted.length + 1);
    const last = await invokeAndWait(call, counter, 'increment', []);
    expect(last.receipt.result).toBe(increments + 1);
    const listed = await call('GET', '/stellar/v1/transaction/reference/burst');
    // The burst's records (the increment before it carries no reference), every one finished.
    expect(listed.body.info.every((record: { status: string }) => record.status !== 'PENDING')).toBe(true);
    expect(listed.body.info.filter((record: { status: string }) => record.status === 'SUCCESS')).toHaveLength(
      increments - 1,
    );
  } finally {
    await db.end().catch(() => {});
    second.child.kill('SIGTERM');
    await second.exited;
  }
});
