import { contract, type Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kind, kitchenSinkWasm } from './support/contracts.ts';
import { DappClient } from './support/sandbox-client.ts';

// The SDK's generated-client path: it fetches the wasm through getLedgerEntries, reads the
// contractspecv0 section, converts native args, simulates, signs and sends.
describe('soroban sandbox: stellar-sdk contract.Client', () => {
  let client: DappClient;
  let alice: Keypair;
  let contractId: string;

  beforeAll(async () => {
    client = await DappClient.start();
    alice = await client.fund();
    contractId = await client.deploy(alice, await kitchenSinkWasm());
  });
  afterAll(() => client.stop());

  async function sdkClient(kp: Keypair): Promise<contract.Client> {
    return contract.Client.from({
      contractId,
      rpcUrl: client.sandbox.rpcUrl,
      allowHttp: true,
      networkPassphrase: client.sandbox.networkPassphrase,
      publicKey: kp.publicKey(),
      ...contract.basicNodeSigner(kp, client.sandbox.networkPassphrase),
    });
  }

  it('reads results of read-only calls from simulation', async () => {
    const c = await sdkClient(alice);
    const tx = await (
      c as unknown as { add(a: { a: number; b: number }): Promise<contract.AssembledTransaction<number>> }
    ).add({
      a: 40,
      b: 2,
    });
    expect(tx.result).toBe(42);
  });

  it('signs and sends state-changing calls, including other signers auth entries', async () => {
    const bob = await client.fund();
    type Guarded = {
      guarded(a: { user: string; val: number }): Promise<contract.AssembledTransaction<number>>;
    };
    const c = (await sdkClient(alice)) as unknown as Guarded & {
      put(a: { key: string; val: number; kind: number }): Promise<contract.AssembledTransaction<null>>;
      get(a: { key: string; kind: number }): Promise<contract.AssembledTransaction<number | undefined>>;
    };
    const put = await c.put({ key: 'stars', val: 5, kind: Kind.persistent });
    const sent = await put.signAndSend();
    expect(sent.getTransactionResponse?.status).toBe('SUCCESS');
    expect((await c.get({ key: 'stars', kind: Kind.persistent })).result).toBe(5);

    const tx = await c.guarded({ user: bob.publicKey(), val: 8 });
    expect(tx.needsNonInvokerSigningBy()).toEqual([bob.publicKey()]);
    await tx.signAuthEntries({
      address: bob.publicKey(),
      signAuthEntry: contract.basicNodeSigner(bob, client.sandbox.networkPassphrase).signAuthEntry,
    });
    const done = await tx.signAndSend();
    expect(done.result).toBe(8);
  });
});
