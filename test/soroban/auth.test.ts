import {
  Address,
  authorizeEntry,
  Keypair,
  nativeToScVal,
  Operation,
  rpc,
  scValToNative,
  TransactionBuilder,
  xdr,
} from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitchenSinkWasm, proxyWasm, walletWasm } from './support/contracts.ts';
import { DappClient, failureMessage } from './support/sandbox-client.ts';

const addr = (kp: Keypair) => nativeToScVal(Address.fromString(kp.publicKey()));
const u32 = (n: number) => nativeToScVal(n, { type: 'u32' });

function invokeResultCode(res: { resultXdr: xdr.TransactionResult }): string | undefined {
  return res.resultXdr.result().results()[0]?.tr().invokeHostFunctionResult().switch().name;
}

describe('soroban sandbox: authorization', () => {
  let client: DappClient;
  let alice: Keypair;
  let bob: Keypair;
  let contract: string;

  beforeAll(async () => {
    client = await DappClient.start();
    alice = await client.fund();
    bob = await client.fund();
    contract = await client.deploy(alice, await kitchenSinkWasm());
  });
  afterAll(() => client.stop());

  it('the transaction source authorizes itself with source-account credentials', async () => {
    const op = Operation.invokeContractFunction({
      contract,
      function: 'guarded',
      args: [addr(alice), u32(5)],
    });
    const sim = await client.server.simulateTransaction(await client.build(alice, op));
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error(sim.error);
    const auth = sim.result?.auth ?? [];
    expect(auth).toHaveLength(1);
    expect(auth[0]?.credentials().switch().name).toBe('sorobanCredentialsSourceAccount');
    expect(auth[0]?.rootInvocation().function().contractFn().functionName().toString()).toBe('guarded');

    const res = await client.invoke(alice, contract, 'guarded', [addr(alice), u32(5)]);
    expect(res.status).toBe('SUCCESS');
    expect(scValToNative(res.returnValue as xdr.ScVal)).toBe(5);
  });

  it('another account authorizes with a signed SorobanAuthorizationEntry', async () => {
    const res = await client.invoke(alice, contract, 'guarded', [addr(bob), u32(9)], [bob]);
    expect(res.status).toBe('SUCCESS');
    const stored = await client.server.getContractData(contract, nativeToScVal('last', { type: 'symbol' }));
    expect(scValToNative(stored.val.contractData().val())).toBe(9);
  });

  it('fails on-chain when the authorization entry is not signed by the address', async () => {
    const op = Operation.invokeContractFunction({ contract, function: 'guarded', args: [addr(bob), u32(1)] });
    let tx = await client.server.prepareTransaction(await client.build(alice, op));
    const eve = Keypair.random();
    const env = tx.toEnvelope();
    const ihf = env.v1().tx().operations()[0]?.body().invokeHostFunctionOp();
    if (!ihf) throw new Error('no invoke op');
    const latest = await client.server.getLatestLedger();
    const forged = await Promise.all(
      ihf.auth().map((e) => authorizeEntry(e, eve, latest.sequence + 50, client.sandbox.networkPassphrase)),
    );
    ihf.auth(forged);
    tx = TransactionBuilder.fromXDR(env.toXDR('base64'), client.sandbox.networkPassphrase) as typeof tx;
    tx.sign(alice);
    const res = await client.sendAndPoll(tx);
    expect(res.status).toBe('FAILED');
    expect(invokeResultCode(res)).toBe('invokeHostFunctionTrapped');
    expect(failureMessage(res)).toContain('signature check failed');
  });

  it('fails on-chain when a required authorization is missing entirely', async () => {
    const op = Operation.invokeContractFunction({ contract, function: 'guarded', args: [addr(bob), u32(2)] });
    const prepared = await client.server.prepareTransaction(await client.build(alice, op));
    const env = prepared.toEnvelope();
    env.v1().tx().operations()[0]?.body().invokeHostFunctionOp().auth([]);
    const tx = TransactionBuilder.fromXDR(
      env.toXDR('base64'),
      client.sandbox.networkPassphrase,
    ) as typeof prepared;
    tx.sign(alice);
    const res = await client.sendAndPoll(tx);
    expect(res.status).toBe('FAILED');
    expect(invokeResultCode(res)).toBe('invokeHostFunctionTrapped');
    expect(failureMessage(res)).toContain('Unauthorized function call');
  });

  it('rejects a replayed authorization (nonce already consumed)', async () => {
    const op = Operation.invokeContractFunction({ contract, function: 'guarded', args: [addr(bob), u32(3)] });
    const prepared = await client.server.prepareTransaction(await client.build(alice, op));
    const signed = await client.signAuthEntries(prepared, [bob]);
    const signedEnv = signed.toEnvelope().toXDR('base64');
    signed.sign(alice);
    expect((await client.sendAndPoll(signed)).status).toBe('SUCCESS');

    // Same signed entry and footprint, new sequence number.
    const original = (
      TransactionBuilder.fromXDR(signedEnv, client.sandbox.networkPassphrase) as typeof signed
    )
      .toEnvelope()
      .v1()
      .tx();
    const sorobanData = original.ext().sorobanData();
    const account = await client.server.getAccount(alice.publicKey());
    const again = new TransactionBuilder(account, {
      fee: '100',
      networkPassphrase: client.sandbox.networkPassphrase,
      sorobanData,
    })
      .addOperation(original.operations()[0] as xdr.Operation)
      .setTimeout(30)
      .build();
    again.sign(alice);
    const res = await client.sendAndPoll(again);
    expect(res.status).toBe('FAILED');
    expect(invokeResultCode(res)).toBe('invokeHostFunctionTrapped');
    expect(failureMessage(res)).toContain('nonce already used');
  });

  it('re-simulation enforces the auth entries a transaction already carries', async () => {
    const op = Operation.invokeContractFunction({ contract, function: 'guarded', args: [addr(bob), u32(4)] });
    const prepared = await client.server.prepareTransaction(await client.build(alice, op));
    const signed = await client.signAuthEntries(prepared, [bob]);
    const ok = await client.server.simulateTransaction(signed);
    expect(rpc.Api.isSimulationSuccess(ok)).toBe(true);

    const forged = await client.signAuthEntries(prepared, [Keypair.random()]);
    const env = forged.toEnvelope();
    const ihf = env.v1().tx().operations()[0]?.body().invokeHostFunctionOp();
    if (!ihf) throw new Error('no invoke op');
    const latest = await client.server.getLatestLedger();
    ihf.auth(
      await Promise.all(
        ihf
          .auth()
          .map((e) =>
            authorizeEntry(e, Keypair.random(), latest.sequence + 50, client.sandbox.networkPassphrase),
          ),
      ),
    );
    const bad = await client.server.simulateTransaction(
      TransactionBuilder.fromXDR(env.toXDR('base64'), client.sandbox.networkPassphrase) as typeof prepared,
    );
    expect((bad as rpc.Api.SimulateTransactionErrorResponse).error).toContain('signature check failed');
  });

  it('a custom account contract authorizes through __check_auth', async () => {
    const wallet = await client.deploy(alice, await walletWasm());
    const walletAddr = nativeToScVal(Address.fromString(wallet));
    const op = Operation.invokeContractFunction({
      contract,
      function: 'guarded',
      args: [walletAddr, u32(6)],
    });

    const withSignature = async (sig: xdr.ScVal) => {
      const prepared = await client.server.prepareTransaction(await client.build(alice, op));
      const env = prepared.toEnvelope();
      const ihf = env.v1().tx().operations()[0]?.body().invokeHostFunctionOp();
      const creds = ihf?.auth()[0]?.credentials().address();
      if (!creds) throw new Error('expected address credentials for the wallet');
      const latest = await client.server.getLatestLedger();
      creds.signatureExpirationLedger(latest.sequence + 20);
      creds.signature(sig);
      // Re-simulate with the signed entry (enforcing mode) so the footprint covers __check_auth.
      const signed = TransactionBuilder.fromXDR(
        env.toXDR('base64'),
        client.sandbox.networkPassphrase,
      ) as typeof prepared;
      return client.server.prepareTransaction(signed);
    };

    await expect(withSignature(u32(8))).rejects.toThrow(/Error\(Contract, #1\)/);
    const tx = await withSignature(u32(7));
    tx.sign(alice);
    const res = await client.sendAndPoll(tx);
    expect(res.status).toBe('SUCCESS');
    const seen = await client.server.getContractData(
      wallet,
      xdr.ScVal.scvLedgerKeyContractInstance(),
      rpc.Durability.Persistent,
    );
    const storage = seen.val.contractData().val().instance().storage() ?? [];
    expect(storage.map((e) => [scValToNative(e.key()), scValToNative(e.val())])).toEqual([['ctxs', 1]]);
  });

  it('a contract pre-authorizes deeper calls with authorize_as_curr_contract', async () => {
    const relay = await client.deploy(alice, await kitchenSinkWasm());
    const proxy = await client.deploy(alice, await proxyWasm());
    const args = [nativeToScVal(Address.fromString(relay)), nativeToScVal(Address.fromString(contract))];
    const op = Operation.invokeContractFunction({ contract: proxy, function: 'proxy', args });
    const sim = await client.server.simulateTransaction(await client.build(alice, op));
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error(sim.error);
    expect(sim.result?.auth).toHaveLength(0);
    const res = await client.invoke(alice, proxy, 'proxy', args);
    expect(res.status).toBe('SUCCESS');
    expect(scValToNative(res.returnValue as xdr.ScVal)).toBe(5);
  });

  it('source-account credentials follow the operation source when it differs from the tx source', async () => {
    const op = Operation.invokeContractFunction({
      contract,
      function: 'guarded',
      args: [addr(bob), u32(12)],
      source: bob.publicKey(),
    });
    const tx = await client.server.prepareTransaction(await client.build(alice, op));
    const auth = tx.toEnvelope().v1().tx().operations()[0]?.body().invokeHostFunctionOp().auth() ?? [];
    expect(auth.map((a) => a.credentials().switch().name)).toEqual(['sorobanCredentialsSourceAccount']);
    tx.sign(alice, bob);
    const res = await client.sendAndPoll(tx);
    expect(res.status).toBe('SUCCESS');
    expect(scValToNative(res.returnValue as xdr.ScVal)).toBe(12);
  });
});
