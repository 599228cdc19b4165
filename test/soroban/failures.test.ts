import {
  Keypair,
  nativeToScVal,
  Operation,
  rpc,
  SorobanDataBuilder,
  TransactionBuilder,
  xdr,
} from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kind, kitchenSinkWasm } from './support/contracts.ts';
import { DappClient, failureMessage } from './support/sandbox-client.ts';

const i32 = (n: number) => nativeToScVal(n, { type: 'i32' });
const u32 = (n: number) => nativeToScVal(n, { type: 'u32' });
const sym = (s: string) => nativeToScVal(s, { type: 'symbol' });

function invokeResultCode(res: { resultXdr: xdr.TransactionResult }): string | undefined {
  return res.resultXdr.result().results()[0]?.tr().invokeHostFunctionResult().switch().name;
}

describe('soroban sandbox: failing invocations', () => {
  let client: DappClient;
  let alice: Keypair;
  let contract: string;

  beforeAll(async () => {
    client = await DappClient.start();
    alice = await client.fund();
    contract = await client.deploy(alice, await kitchenSinkWasm());
  });
  afterAll(() => client.stop());

  async function simulate(fn: string, args: xdr.ScVal[]) {
    const op = Operation.invokeContractFunction({ contract, function: fn, args });
    return client.server.simulateTransaction(await client.build(alice, op));
  }

  /** Sends `failing` with the footprint/resources simulated for `passing`, as a stale client would. */
  async function sendWithStaleSimulation(passing: xdr.ScVal[], failing: xdr.ScVal[], fn = 'add') {
    const sim = await simulate(fn, passing);
    const op = Operation.invokeContractFunction({ contract, function: fn, args: failing });
    const tx = rpc.assembleTransaction(await client.build(alice, op), sim).build();
    tx.sign(alice);
    return client.sendAndPoll(tx);
  }

  it('a panicking contract fails simulation with a wasm trap', async () => {
    const sim = await simulate('boom', []);
    expect(rpc.Api.isSimulationError(sim)).toBe(true);
    expect((sim as rpc.Api.SimulateTransactionErrorResponse).error).toMatch(
      /Error\(WasmVm, #InvalidAction\).*trap/,
    );
  });

  it('a panicking contract fails on-chain as invokeHostFunctionTrapped and still pays its fee', async () => {
    const before = await client.balance(alice.publicKey());
    const res = await sendWithStaleSimulation([i32(1), i32(2)], [i32(2_147_483_647), i32(1)]);
    expect(res.status).toBe('FAILED');
    expect(invokeResultCode(res)).toBe('invokeHostFunctionTrapped');
    const fee = res.resultXdr.feeCharged().toBigInt();
    expect(fee).toBeGreaterThan(100n);
    expect(await client.balance(alice.publicKey())).toBe(before - fee);
  });

  it('fail_with_error surfaces the contract error code', async () => {
    const sim = await simulate('fail', [u32(13)]);
    expect((sim as rpc.Api.SimulateTransactionErrorResponse).error).toContain('Error(Contract, #13)');
  });

  it('touching an entry outside the footprint fails like on the network', async () => {
    const res = await sendWithStaleSimulation(
      [sym('a'), u32(1), u32(Kind.persistent)],
      [sym('b'), u32(1), u32(Kind.persistent)],
      'put',
    );
    expect(res.status).toBe('FAILED');
    expect(invokeResultCode(res)).toBe('invokeHostFunctionTrapped');
    expect(failureMessage(res)).toContain('is not in the footprint');
  });

  it('declaring fewer instructions than needed fails with resource limit exceeded', async () => {
    const sim = await simulate('add', [i32(1), i32(2)]);
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error(sim.error);
    const data = sim.transactionData.build();
    const r = data.resources();
    // Simulation adds stellar-rpc's instruction leeway; the VM instantiation alone costs more than this.
    const tight = new SorobanDataBuilder(data)
      .setResources(100_000, r.diskReadBytes(), r.writeBytes())
      .build();
    const account = await client.server.getAccount(alice.publicKey());
    const tx = new TransactionBuilder(account, {
      fee: '100',
      networkPassphrase: client.sandbox.networkPassphrase,
      sorobanData: tight,
    })
      .addOperation(Operation.invokeContractFunction({ contract, function: 'add', args: [i32(1), i32(2)] }))
      .setTimeout(30)
      .build();
    tx.sign(alice);
    const res = await client.sendAndPoll(tx);
    expect(res.status).toBe('FAILED');
    expect(invokeResultCode(res)).toBe('invokeHostFunctionResourceLimitExceeded');
  });

  it('a fee below the declared resource fee is rejected at submission', async () => {
    const sim = await simulate('add', [i32(1), i32(2)]);
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error(sim.error);
    const account = await client.server.getAccount(alice.publicKey());
    const tx = new TransactionBuilder(account, {
      fee: '100',
      networkPassphrase: client.sandbox.networkPassphrase,
    })
      .addOperation(Operation.invokeContractFunction({ contract, function: 'add', args: [i32(1), i32(2)] }))
      .setTimeout(30)
      .build();
    // Declares the resources but pays only the inclusion fee.
    const env = tx.toEnvelope();
    env.v1().tx().ext(new xdr.TransactionExt(1, sim.transactionData.build()));
    const underpaid = TransactionBuilder.fromXDR(env, client.sandbox.networkPassphrase) as typeof tx;
    underpaid.sign(alice);
    const sent = await client.server.sendTransaction(underpaid);
    expect(sent.status).toBe('ERROR');
    expect(sent.errorResult?.result().switch().name).toBe('txInsufficientFee');
  });

  it('an unimplemented host function traps and names itself', async () => {
    const sim = await simulate('bls', [nativeToScVal(Buffer.alloc(96))]);
    const error = (sim as rpc.Api.SimulateTransactionErrorResponse).error;
    expect(error).toContain('c.4');
    expect(error).toContain('bls12_381_check_g1_is_in_subgroup');
    expect(error).toContain('not implemented');
  });

  it('refuses wasm without the contractenvmetav0 interface version', async () => {
    const wasm = await kitchenSinkWasm({ envMeta: false });
    const sim = await client.server.simulateTransaction(
      await client.build(alice, Operation.uploadContractWasm({ wasm })),
    );
    expect((sim as rpc.Api.SimulateTransactionErrorResponse).error).toContain('contractenvmetav0');
  });

  it('an invocation on a missing contract fails simulation', async () => {
    const ghost = Keypair.random().rawPublicKey();
    const { StrKey } = await import('@stellar/stellar-sdk');
    const op = Operation.invokeContractFunction({
      contract: StrKey.encodeContract(ghost),
      function: 'add',
      args: [],
    });
    const sim = await client.server.simulateTransaction(await client.build(alice, op));
    expect((sim as rpc.Api.SimulateTransactionErrorResponse).error).toContain(
      'Error(Storage, #MissingValue)',
    );
  });

  it('an endless loop runs out of CPU budget instead of hanging the network', async () => {
    const sim = await simulate('spin', []);
    expect((sim as rpc.Api.SimulateTransactionErrorResponse).error).toContain(
      'Error(Budget, #ExceededLimit)',
    );
    expect((await client.server.getHealth()).status).toBe('healthy');
  });
});
