// Ad-hoc check (not part of the test suite): runs real soroban-sdk-built contracts against the
// sandbox. Usage: node --import tsx test/soroban/scripts/run-shared-fixtures.ts [fixturesDir]
// The fixtures live outside the repository (default ../shared/fixtures/soroban).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { nativeToScVal, scValToNative, type xdr } from '@stellar/stellar-sdk';
import { DappClient } from '../support/sandbox-client.ts';

const dir = resolve(process.argv[2] ?? join(import.meta.dirname, '../../../../shared/fixtures/soroban'));

const calls: Record<string, Array<{ fn: string; args: xdr.ScVal[] }>> = {
  add_i32: [{ fn: 'add', args: [nativeToScVal(2, { type: 'i32' }), nativeToScVal(40, { type: 'i32' })] }],
  hello_world: [{ fn: 'hello', args: [nativeToScVal('Chaingate', { type: 'symbol' })] }],
  increment_events: [
    { fn: 'increment', args: [] },
    { fn: 'increment', args: [] },
  ],
};

const show = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));

const client = await DappClient.start();
try {
  const alice = await client.fund();
  for (const [name, invocations] of Object.entries(calls)) {
    const file = join(dir, `${name}.wasm`);
    if (!existsSync(file)) {
      console.log(`${name}: skipped (${file} not found)`);
      continue;
    }
    const contract = await client.deploy(alice, readFileSync(file));
    for (const { fn, args } of invocations) {
      const res = await client.invoke(alice, contract, fn, args);
      const events = (res.events?.contractEventsXdr[0] ?? []).map((e) => ({
        topics: e
          .body()
          .v0()
          .topics()
          .map((t) => scValToNative(t)),
        data: scValToNative(e.body().v0().data()),
      }));
      const value = res.returnValue ? scValToNative(res.returnValue) : undefined;
      console.log(
        `${name}.${fn}: ${res.status} returned ${show(value)} events ${show(events)} fee ${res.resultXdr.feeCharged().toString()}`,
      );
    }
  }
} finally {
  await client.stop();
}
