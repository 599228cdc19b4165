import { randomUUID } from 'node:crypto';
import { Operation, type xdr } from '@stellar/stellar-sdk';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  findStellarAccount,
  type StellarAccountRow,
} from '../../src/platform/custody/stellar-accounts.repository.ts';
import type { StellarNetwork } from '../../src/platform/networks/stellar-networks.ts';
import type { PreparedTransaction } from '../../src/stellar/engine/prepared-transaction.ts';
import { simulateOperation } from '../../src/stellar/services/simulate-operation.ts';
import type { StellarContext } from '../../src/stellar/services/stellar-context.ts';
import { apiClient } from '../support/api-client.ts';
import { createDatabase } from '../support/postgres-server.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { deployAndWait, invokeAndWait, LOCAL, savedId, waitForStellar } from './support/stellar-api.ts';
import { behaviourWasm } from './support/test-contracts.ts';

// A lane group signs its requests in one database transaction. A key it looked up and found free can be
// taken before its insert by a request the lane does not see (another service process on the store):
// the unique index refuses the insert and the group's transaction rolls back. Only the keyed request may
// be answered for that; the group's other requests must still be submitted.
let service: TestService;
let call: ReturnType<typeof apiClient>;
let databaseUrl: string;
let counter: string;

beforeAll(async () => {
  databaseUrl = await createDatabase(inject('postgresUrl'));
  service = await startTestService({ CHAINGATE_DEVNET: '0', LOG_LEVEL: 'error', DATABASE_URL: databaseUrl });
  call = apiClient(service.url, service.auth);
  counter = await deployAndWait(
    call,
    await savedId(service.url, service.auth, await behaviourWasm(), 'behaviour'),
  );
});
afterAll(async () => service?.close());

/** The counter's `count`, simulated once and prepared as the invoke route prepares it. */
async function preparedCounts(network: StellarNetwork, account: StellarAccountRow) {
  const operation = Operation.invokeContractFunction({
    contract: counter,
    function: 'count',
    args: [],
  }) as unknown as xdr.Operation;
  const simulation = await simulateOperation(network, account.address, operation, { what: 'method' });
  return (myReference: string, key?: string): PreparedTransaction => ({
    kind: 'invoke',
    operation: simulation.operation,
    sorobanData: simulation.sorobanData,
    contractAddress: counter,
    method: 'count',
    specId: null,
    myReference,
    idempotency: key ? { key, fingerprint: 'this request' } : undefined,
  });
}

/** Waits until a statement of the service waits for a lock another session holds. */
async function untilWaitingOnLock(client: pg.Client): Promise<void> {
  for (;;) {
    const { rows } = await client.query(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
    );
    if (rows[0].waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a key taken outside the lane between its look and its insert', () => {
  it('answers the keyed request in-use and still submits the rest of its group', async () => {
    const before = (await invokeAndWait(call, counter, 'count', [])).receipt.result as number;
    const { engine, platform } = service.app.stellar as StellarContext;
    const network = platform.stellar.get(LOCAL) as StellarNetwork;
    const account = (await findStellarAccount(
      platform.db,
      service.credentials.applicationId,
      LOCAL,
    )) as StellarAccountRow;
    const prepared = await preparedCounts(network, account);

    // Another process's request with the key, written and not yet committed: the lane's look does not
    // see it, and the group's insert waits on it in the unique index.
    const other = new pg.Client({ connectionString: databaseUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO stellar_transactions (id, application_id, network_id, kind, source, operation_xdr,
           inclusion_fee, state, idempotency_key, idempotency_fingerprint)
         VALUES ($1, $2, $3, 'invoke', $4, 'AAAA', 100, 'error', 'taken-elsewhere', 'another request')`,
        [randomUUID(), service.credentials.applicationId, LOCAL, account.address],
      );
      // Queued in one tick: one lane group, the keyed request between two others.
      const submissions = [
        engine.submit(network, account, prepared('takenBefore')),
        engine.submit(network, account, prepared('takenKeyed', 'taken-elsewhere')),
        engine.submit(network, account, prepared('takenAfter')),
      ].map((submission) =>
        submission.then(
          (submitted) => ({ submitted }),
          (error: unknown) => ({ error: error as { code?: string } }),
        ),
      );
      await untilWaitingOnLock(other);
      await other.query('COMMIT');
      const [first, keyed, last] = await Promise.all(submissions);

      expect(keyed).toEqual({ error: expect.objectContaining({ code: 'CG_ERR_IDEMPOTENCY_KEY_IN_USE' }) });
      const landed = [];
      for (const answer of [first, last]) {
        if (!answer || !('submitted' in answer)) throw new Error(`not submitted: ${JSON.stringify(answer)}`);
        landed.push(await waitForStellar(call, answer.submitted.txHash));
      }
      expect(landed.map((info) => info.status)).toEqual(['SUCCESS', 'SUCCESS']);
      // Counted twice, in sequence: no number of the rolled-back group was lost.
      expect((await invokeAndWait(call, counter, 'count', [])).receipt.result).toBe(before + 3);
    } finally {
      await other.end();
    }
  });
});
