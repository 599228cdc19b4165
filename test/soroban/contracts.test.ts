import { createHash } from 'node:crypto';
import { Address, type Keypair, nativeToScVal, scValToNative, type xdr } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constructorWasm, kitchenSinkWasm } from './support/contracts.ts';
import { DappClient } from './support/sandbox-client.ts';

const i32 = (n: number) => nativeToScVal(n, { type: 'i32' });
const u32 = (n: number) => nativeToScVal(n, { type: 'u32' });

describe('soroban sandbox: events, cross-contract calls, constructors, host services', () => {
  let client: DappClient;
  let alice: Keypair;
  let contract: string;

  beforeAll(async () => {
    client = await DappClient.start();
    alice = await client.fund();
    contract = await client.deploy(alice, await kitchenSinkWasm());
  });
  afterAll(() => client.stop());

  it('publishes contract events in the transaction meta and through getEvents', async () => {
    const res = await client.invoke(alice, contract, 'emit', [u32(321)]);
    expect(res.status).toBe('SUCCESS');
    const events = res.events?.contractEventsXdr[0] ?? [];
    expect(events).toHaveLength(1);
    const body = events[0]?.body().v0();
    expect(body?.topics().map((t) => scValToNative(t))).toEqual(['ping', 321]);
    expect(scValToNative(body?.data() as xdr.ScVal)).toBe(321);

    const ping = nativeToScVal('ping', { type: 'symbol' }).toXDR('base64');
    const found = await client.server.getEvents({
      startLedger: res.ledger,
      filters: [{ type: 'contract', contractIds: [contract], topics: [[ping, '*']] }],
    });
    expect(found.events).toHaveLength(1);
    expect(found.events[0]?.txHash).toBe(res.txHash);
    expect(found.events[0]?.contractId?.contractId()).toBe(contract);
    expect(scValToNative(found.events[0]?.value as xdr.ScVal)).toBe(321);

    const other = nativeToScVal('pong', { type: 'symbol' }).toXDR('base64');
    const none = await client.server.getEvents({
      startLedger: res.ledger,
      filters: [{ type: 'contract', topics: [[other, '*']] }],
    });
    expect(none.events).toHaveLength(0);
  });

  it('calls another contract', async () => {
    const callee = await client.deploy(alice, await kitchenSinkWasm());
    const res = await client.invoke(alice, contract, 'call_add', [
      nativeToScVal(Address.fromString(callee)),
      i32(20),
      i32(22),
    ]);
    expect(res.status).toBe('SUCCESS');
    expect(scValToNative(res.returnValue as xdr.ScVal)).toBe(42);
  });

  it('runs __constructor with the deploy arguments (createContractV2)', async () => {
    const withCtor = await client.deploy(alice, await constructorWasm(), [u32(77)]);
    const res = await client.invoke(alice, withCtor, 'init');
    expect(scValToNative(res.returnValue as xdr.ScVal)).toBe(77);
  });

  it('derives contract ids the way the network does', async () => {
    const { hash, xdr: X, StrKey, Operation, Keypair: KP } = await import('@stellar/stellar-sdk');
    const wasm = await kitchenSinkWasm();
    const salt = KP.random().rawPublicKey();
    const wasmHash = await client.upload(alice, wasm);
    const res = await client.submit(
      alice,
      Operation.createCustomContract({ address: Address.fromString(alice.publicKey()), wasmHash, salt }),
    );
    const preimage = X.HashIdPreimage.envelopeTypeContractId(
      new X.HashIdPreimageContractId({
        networkId: hash(Buffer.from(client.sandbox.networkPassphrase)),
        contractIdPreimage: X.ContractIdPreimage.contractIdPreimageFromAddress(
          new X.ContractIdPreimageFromAddress({
            address: Address.fromString(alice.publicKey()).toScAddress(),
            salt,
          }),
        ),
      }),
    );
    expect(Address.fromScVal(res.returnValue as xdr.ScVal).toString()).toBe(
      StrKey.encodeContract(hash(preimage.toXDR())),
    );
  });

  it('hashes with sha256 and reports the ledger sequence', async () => {
    const data = Buffer.from('chaingate');
    const res = await client.invoke(alice, contract, 'hash', [nativeToScVal(data)]);
    expect(Buffer.from(scValToNative(res.returnValue as xdr.ScVal)).toString('hex')).toBe(
      createHash('sha256').update(data).digest('hex'),
    );
    const seq = await client.invoke(alice, contract, 'seq');
    expect(scValToNative(seq.returnValue as xdr.ScVal)).toBe(seq.ledger);
  });
});
