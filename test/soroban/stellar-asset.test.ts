import {
  Address,
  Asset,
  type Keypair,
  nativeToScVal,
  Operation,
  rpc,
  scValToNative,
  type xdr,
} from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitchenSinkWasm } from './support/contracts.ts';
import { DappClient } from './support/sandbox-client.ts';

const XLM = 10_000_000n;
const addr = (a: string) => nativeToScVal(Address.fromString(a));
const i128 = (v: bigint) => nativeToScVal(v, { type: 'i128' });

describe('soroban sandbox: native XLM Stellar Asset Contract', () => {
  let client: DappClient;
  let alice: Keypair;
  let bob: Keypair;
  let sac: string;

  beforeAll(async () => {
    client = await DappClient.start();
    alice = await client.fund();
    bob = await client.fund();
    sac = Asset.native().contractId(client.sandbox.networkPassphrase);
  });
  afterAll(() => client.stop());

  async function read(fn: string, args: xdr.ScVal[] = []) {
    const op = Operation.invokeContractFunction({ contract: sac, function: fn, args });
    const sim = await client.server.simulateTransaction(await client.build(alice, op));
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error(sim.error);
    return scValToNative(sim.result?.retval as xdr.ScVal);
  }

  it('exists from genesis at the address the SDK derives, and cannot be deployed twice', async () => {
    const again = await client.server.simulateTransaction(
      await client.build(alice, Operation.createStellarAssetContract({ asset: Asset.native() })),
    );
    expect((again as rpc.Api.SimulateTransactionErrorResponse).error).toContain('ExistingValue');
    expect(await read('decimals')).toBe(7);
    expect(await read('symbol')).toBe('native');
  });

  it('reports the spendable balance of an account (above the reserve)', async () => {
    const raw = await client.balance(alice.publicKey());
    expect(await read('balance', [addr(alice.publicKey())])).toBe(raw - 1n * XLM);
  });

  it('transfers XLM between accounts with the sender authorizing', async () => {
    const before = await client.balance(bob.publicKey());
    const res = await client.invoke(alice, sac, 'transfer', [
      addr(alice.publicKey()),
      addr(bob.publicKey()),
      i128(5n * XLM),
    ]);
    expect(res.status).toBe('SUCCESS');
    expect(await client.balance(bob.publicKey())).toBe(before + 5n * XLM);
    const ev = res.events?.contractEventsXdr[0]?.[0]?.body().v0();
    expect(ev?.topics().map((t) => scValToNative(t))).toEqual([
      'transfer',
      alice.publicKey(),
      bob.publicKey(),
      'native',
    ]);
    expect(scValToNative(ev?.data() as xdr.ScVal)).toBe(5n * XLM);
  });

  it('holds balances for contracts and refuses overdrafts with BalanceError', async () => {
    const contract = await client.deploy(alice, await kitchenSinkWasm());
    await client.invoke(alice, sac, 'transfer', [addr(alice.publicKey()), addr(contract), i128(3n * XLM)]);
    expect(await read('balance', [addr(contract)])).toBe(3n * XLM);
    const op = Operation.invokeContractFunction({
      contract: sac,
      function: 'transfer',
      args: [addr(alice.publicKey()), addr(bob.publicKey()), i128(1_000_000n * XLM)],
    });
    const sim = await client.server.simulateTransaction(await client.build(alice, op));
    expect((sim as rpc.Api.SimulateTransactionErrorResponse).error).toContain('Error(Contract, #10)');
  });

  it('supports approve / allowance / transfer_from', async () => {
    const carol = await client.fund();
    const latest = await client.server.getLatestLedger();
    await client.invoke(alice, sac, 'approve', [
      addr(alice.publicKey()),
      addr(bob.publicKey()),
      i128(2n * XLM),
      nativeToScVal(latest.sequence + 100, { type: 'u32' }),
    ]);
    expect(await read('allowance', [addr(alice.publicKey()), addr(bob.publicKey())])).toBe(2n * XLM);
    const before = await client.balance(carol.publicKey());
    const res = await client.invoke(bob, sac, 'transfer_from', [
      addr(bob.publicKey()),
      addr(alice.publicKey()),
      addr(carol.publicKey()),
      i128(1n * XLM),
    ]);
    expect(res.status).toBe('SUCCESS');
    expect(await client.balance(carol.publicKey())).toBe(before + 1n * XLM);
    expect(await read('allowance', [addr(alice.publicKey()), addr(bob.publicKey())])).toBe(1n * XLM);
  });

  it('friendbot funds contract addresses through the native asset contract', async () => {
    const contract = await client.deploy(alice, await kitchenSinkWasm());
    const res = await client.server.fundAddress(contract);
    expect(res.status).toBe('SUCCESS');
    expect(await read('balance', [addr(contract)])).toBe(10_000n * XLM);
  });
});
