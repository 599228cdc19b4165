import {
  Address,
  Asset,
  hash,
  nativeToScVal,
  Operation,
  rpc,
  SorobanDataBuilder,
  scValToNative,
  TransactionBuilder,
  xdr,
} from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kind, kitchenSinkWasm } from './support/contracts.ts';
import { DappClient } from './support/sandbox-client.ts';

const sym = (s: string) => nativeToScVal(s, { type: 'symbol' });
const u32 = (n: number) => nativeToScVal(n, { type: 'u32' });

function dataKey(contract: string, key: string, durability: xdr.ContractDataDurability): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: Address.fromString(contract).toScAddress(),
      key: sym(key),
      durability,
    }),
  );
}

describe('soroban sandbox: contract storage and TTLs', () => {
  let client: DappClient;
  const minTemporaryTtl = 3;
  const minPersistentTtl = 50;

  beforeAll(async () => {
    client = await DappClient.start({ network: { minTemporaryTtl, minPersistentTtl } });
  });
  afterAll(() => client.stop());

  it('stores persistent data readable with getContractData, with the minimum TTL', async () => {
    const alice = await client.fund();
    const contract = await client.deploy(alice, await kitchenSinkWasm());
    const put = await client.invoke(alice, contract, 'put', [sym('apples'), u32(7), u32(Kind.persistent)]);
    expect(put.status).toBe('SUCCESS');
    const entry = await client.server.getContractData(contract, sym('apples'), rpc.Durability.Persistent);
    expect(scValToNative(entry.val.contractData().val())).toBe(7);
    expect(entry.liveUntilLedgerSeq).toBe(put.ledger + minPersistentTtl - 1);

    const got = await client.invoke(alice, contract, 'get', [sym('apples'), u32(Kind.persistent)]);
    expect(scValToNative(got.returnValue as xdr.ScVal)).toBe(7);
    const missing = await client.invoke(alice, contract, 'get', [sym('pears'), u32(Kind.persistent)]);
    expect(scValToNative(missing.returnValue as xdr.ScVal)).toBeNull();

    await client.invoke(alice, contract, 'del', [sym('apples'), u32(Kind.persistent)]);
    await expect(
      client.server.getContractData(contract, sym('apples'), rpc.Durability.Persistent),
    ).rejects.toThrow();
  });

  it('keeps instance storage inside the contract instance entry', async () => {
    const alice = await client.fund();
    const contract = await client.deploy(alice, await kitchenSinkWasm());
    await client.invoke(alice, contract, 'put', [sym('owner'), u32(42), u32(Kind.instance)]);
    const inst = await client.server.getContractData(
      contract,
      xdr.ScVal.scvLedgerKeyContractInstance(),
      rpc.Durability.Persistent,
    );
    const storage = inst.val.contractData().val().instance().storage() ?? [];
    expect(storage.map((e) => [scValToNative(e.key()), scValToNative(e.val())])).toEqual([['owner', 42]]);
    const got = await client.invoke(alice, contract, 'get', [sym('owner'), u32(Kind.instance)]);
    expect(scValToNative(got.returnValue as xdr.ScVal)).toBe(42);
  });

  it('lets a temporary entry expire after its TTL', async () => {
    const alice = await client.fund();
    const contract = await client.deploy(alice, await kitchenSinkWasm());
    const put = await client.invoke(alice, contract, 'put', [sym('session'), u32(1), u32(Kind.temporary)]);
    const key = dataKey(contract, 'session', xdr.ContractDataDurability.temporary());
    const live = await client.server.getLedgerEntries(key);
    expect(live.entries[0]?.liveUntilLedgerSeq).toBe(put.ledger + minTemporaryTtl - 1);

    await client.waitForLedger(put.ledger + minTemporaryTtl);
    expect((await client.server.getLedgerEntries(key)).entries).toHaveLength(0);
    const has = await client.invoke(alice, contract, 'has', [sym('session'), u32(Kind.temporary)]);
    expect(scValToNative(has.returnValue as xdr.ScVal)).toBe(false);
  });

  it('extends TTL from inside the contract', async () => {
    const alice = await client.fund();
    const contract = await client.deploy(alice, await kitchenSinkWasm());
    await client.invoke(alice, contract, 'put', [sym('k'), u32(1), u32(Kind.persistent)]);
    const res = await client.invoke(alice, contract, 'extend', [
      sym('k'),
      u32(Kind.persistent),
      u32(100),
      u32(500),
    ]);
    expect(res.status).toBe('SUCCESS');
    const entry = await client.server.getContractData(contract, sym('k'), rpc.Durability.Persistent);
    expect(entry.liveUntilLedgerSeq).toBe(res.ledger + 500);
  });

  it('extends TTL with an ExtendFootprintTtl operation', async () => {
    const alice = await client.fund();
    const wasm = await kitchenSinkWasm();
    const contract = await client.deploy(alice, wasm);
    const codeKey = xdr.LedgerKey.contractCode(new xdr.LedgerKeyContractCode({ hash: hash(wasm) }));
    const account = await client.server.getAccount(alice.publicKey());
    const tx = new TransactionBuilder(account, {
      fee: '100',
      networkPassphrase: client.sandbox.networkPassphrase,
    })
      .setSorobanData(new SorobanDataBuilder().setReadOnly([codeKey]).build())
      .addOperation(Operation.extendFootprintTtl({ extendTo: 1000 }))
      .setTimeout(30)
      .build();
    const prepared = await client.server.prepareTransaction(tx);
    prepared.sign(alice);
    const res = await client.sendAndPoll(prepared);
    expect(res.status).toBe('SUCCESS');
    const ttl = await client.server.getLedgerEntries(codeKey);
    expect(ttl.entries[0]?.liveUntilLedgerSeq).toBe(res.ledger + 1000);
    expect(contract).toBeTruthy();
  });
});

describe('soroban sandbox: archival and restore', () => {
  let client: DappClient;

  beforeAll(async () => {
    client = await DappClient.start({ network: { minPersistentTtl: 20 } });
  });
  afterAll(() => client.stop());

  it('archives expired persistent entries and restores them via restorePreamble', async () => {
    const alice = await client.fund();
    const contract = await client.deploy(alice, await kitchenSinkWasm());
    const put = await client.invoke(alice, contract, 'put', [sym('vault'), u32(99), u32(Kind.persistent)]);
    const entry = await client.server.getContractData(contract, sym('vault'), rpc.Durability.Persistent);
    await client.waitForLedger((entry.liveUntilLedgerSeq ?? put.ledger) + 1);

    const op = Operation.invokeContractFunction({
      contract,
      function: 'get',
      args: [sym('vault'), u32(Kind.persistent)],
    });
    const sim = await client.server.simulateTransaction(await client.build(alice, op));
    if (!rpc.Api.isSimulationRestore(sim)) throw new Error('expected a restore preamble');
    const archivedKeys = sim.restorePreamble.transactionData.build().resources().footprint().readWrite();
    expect(archivedKeys.map((k) => k.toXDR('base64'))).toContain(
      dataKey(contract, 'vault', xdr.ContractDataDurability.persistent()).toXDR('base64'),
    );

    // Sending the invocation anyway fails on-chain exactly like the network: entry archived.
    const blind = rpc.assembleTransaction(await client.build(alice, op), sim).build();
    blind.sign(alice);
    const failed = await client.sendAndPoll(blind);
    expect(failed.status).toBe('FAILED');
    const opResult = failed.resultXdr.result().results()[0]?.tr().invokeHostFunctionResult();
    expect(opResult?.switch().name).toBe('invokeHostFunctionEntryArchived');

    const account = await client.server.getAccount(alice.publicKey());
    const restore = new TransactionBuilder(account, {
      fee: (100 + Number(sim.restorePreamble.minResourceFee)).toString(),
      networkPassphrase: client.sandbox.networkPassphrase,
    })
      .setSorobanData(sim.restorePreamble.transactionData.build())
      .addOperation(Operation.restoreFootprint({}))
      .setTimeout(30)
      .build();
    restore.sign(alice);
    expect((await client.sendAndPoll(restore)).status).toBe('SUCCESS');

    const got = await client.invoke(alice, contract, 'get', [sym('vault'), u32(Kind.persistent)]);
    expect(got.status).toBe('SUCCESS');
    expect(scValToNative(got.returnValue as xdr.ScVal)).toBe(99);
  });

  it('reads live contract entries from memory (protocol 23): invocations prepared together all land', async () => {
    const [alice, bob] = await Promise.all([client.fund(), client.fund()]);
    const contract = await client.deploy(alice, await kitchenSinkWasm());
    const put = (value: number) =>
      Operation.invokeContractFunction({
        contract,
        function: 'put',
        args: [sym('fresh'), u32(value), u32(Kind.persistent)],
      });
    // Both are simulated while 'fresh' does not exist yet; whichever lands second finds it.
    const prepared = await Promise.all(
      [alice, bob].map(async (source, index) => {
        const tx = await client.server.prepareTransaction(await client.build(source, put(index + 1)));
        tx.sign(source);
        return tx;
      }),
    );
    const declaredDiskReads = (tx: (typeof prepared)[number]) =>
      tx.toEnvelope().v1().tx().ext().sorobanData().resources().diskReadBytes();
    expect(prepared.map(declaredDiskReads)).toEqual([0, 0]);
    const landed = await Promise.all(prepared.map((tx) => client.sendAndPoll(tx)));
    expect(landed.map((result) => result.status)).toEqual(['SUCCESS', 'SUCCESS']);
    const entry = await client.server.getContractData(contract, sym('fresh'), rpc.Durability.Persistent);
    expect([1, 2]).toContain(scValToNative(entry.val.contractData().val()));

    // Classic entries are still read from disk: a native transfer declares its accounts' bytes.
    const sac = Asset.native().contractId(client.sandbox.networkPassphrase);
    const transfer = Operation.invokeContractFunction({
      contract: sac,
      function: 'transfer',
      args: [
        nativeToScVal(Address.fromString(alice.publicKey())),
        nativeToScVal(Address.fromString(bob.publicKey())),
        nativeToScVal(1n, { type: 'i128' }),
      ],
    });
    const paid = await client.server.prepareTransaction(await client.build(alice, transfer));
    expect(declaredDiskReads(paid)).toBeGreaterThan(0);
  });
});
