import {
  Asset,
  Keypair,
  nativeToScVal,
  Operation,
  scValToNative,
  TransactionBuilder,
  type xdr,
} from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitchenSinkWasm } from './support/contracts.ts';
import { DappClient } from './support/sandbox-client.ts';

const STROOPS_PER_XLM = 10_000_000n;

describe('soroban sandbox: network, friendbot and classic transactions', () => {
  let client: DappClient;

  beforeAll(async () => {
    client = await DappClient.start();
  });
  afterAll(() => client.stop());

  it('identifies as a standalone network and closes ledgers on its own', async () => {
    const net = await client.server.getNetwork();
    expect(net.passphrase).toBe('Standalone Network ; February 2017');
    expect(net.friendbotUrl).toBe(client.sandbox.friendbotUrl);
    const health = await client.server.getHealth();
    expect(health.status).toBe('healthy');
    const first = await client.server.getLatestLedger();
    expect(first.headerXdr.ledgerSeq()).toBe(first.sequence);
    await new Promise((r) => setTimeout(r, 350));
    const later = await client.server.getLatestLedger();
    expect(later.sequence).toBeGreaterThan(first.sequence);
    const manual = await client.sandbox.closeLedger();
    expect(manual).toBeGreaterThan(later.sequence);
  });

  it('friendbot funds a new account with 10,000 XLM and sequence ledger<<32', async () => {
    const kp = Keypair.random();
    const account = await client.server.requestAirdrop(kp.publicKey());
    const ledgerOfCreation = BigInt(account.sequenceNumber()) >> 32n;
    expect(ledgerOfCreation).toBeGreaterThan(1n);
    expect(BigInt(account.sequenceNumber()) & 0xffffffffn).toBe(0n);
    expect(await client.balance(kp.publicKey())).toBe(10_000n * STROOPS_PER_XLM);
  });

  it('friendbot funds several accounts requested concurrently', async () => {
    const kps = Array.from({ length: 5 }, () => Keypair.random());
    const accounts = await Promise.all(kps.map((kp) => client.server.requestAirdrop(kp.publicKey())));
    expect(accounts.map((a) => a.accountId())).toEqual(kps.map((kp) => kp.publicKey()));
    // The same account twice at once: one creates it, the other sees createAccountAlreadyExist.
    const twin = Keypair.random();
    const both = await Promise.all([0, 1].map(() => client.server.requestAirdrop(twin.publicKey())));
    expect(both.map((a) => a.accountId())).toEqual([twin.publicKey(), twin.publicKey()]);
    expect(await client.balance(twin.publicKey())).toBe(10_000n * STROOPS_PER_XLM);
  });

  it('friendbot refuses to fund the same account twice like the real one', async () => {
    const kp = await client.fund();
    const res = await fetch(`${client.sandbox.friendbotUrl}?addr=${kp.publicKey()}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('createAccountAlreadyExist');
    // The SDK treats that as "already funded" and just loads the account.
    const again = await client.server.requestAirdrop(kp.publicKey());
    expect(again.accountId()).toBe(kp.publicKey());
  });

  it('applies a payment, charging the fee from the source and bumping its sequence', async () => {
    const alice = await client.fund();
    const bob = await client.fund();
    const before = await client.server.getAccount(alice.publicKey());
    const tx = await client.build(
      alice,
      Operation.payment({ destination: bob.publicKey(), asset: Asset.native(), amount: '12.5' }),
    );
    tx.sign(alice);
    const res = await client.sendAndPoll(tx);
    expect(res.status).toBe('SUCCESS');
    const fee = res.resultXdr.feeCharged().toBigInt();
    expect(fee).toBe(100n);
    expect(await client.balance(alice.publicKey())).toBe(10_000n * STROOPS_PER_XLM - 125_000_000n - fee);
    expect(await client.balance(bob.publicKey())).toBe(10_000n * STROOPS_PER_XLM + 125_000_000n);
    const after = await client.server.getAccount(alice.publicKey());
    expect(BigInt(after.sequenceNumber())).toBe(BigInt(before.sequenceNumber()) + 1n);
  });

  it('createAccount from a funded account works and underfunded payment fails with its op code', async () => {
    const alice = await client.fund();
    const carol = Keypair.random();
    const create = await client.build(
      alice,
      Operation.createAccount({ destination: carol.publicKey(), startingBalance: '5' }),
    );
    create.sign(alice);
    expect((await client.sendAndPoll(create)).status).toBe('SUCCESS');
    expect(await client.balance(carol.publicKey())).toBe(5n * STROOPS_PER_XLM);

    const pay = await client.build(
      carol,
      Operation.payment({ destination: alice.publicKey(), asset: Asset.native(), amount: '4.5' }),
    );
    pay.sign(carol);
    const res = await client.sendAndPoll(pay);
    expect(res.status).toBe('FAILED');
    const op = res.resultXdr.result().results()[0];
    expect(op?.tr().paymentResult().switch().name).toBe('paymentUnderfunded');
    expect(await client.balance(carol.publicKey())).toBe(5n * STROOPS_PER_XLM - 100n);
  });

  it('rejects bad signatures and bad sequence numbers at submission', async () => {
    const alice = await client.fund();
    const tx = await client.build(alice, Operation.bumpSequence({ bumpTo: '0' }));
    tx.sign(Keypair.random());
    const bad = await client.server.sendTransaction(tx);
    expect(bad.status).toBe('ERROR');
    expect(bad.errorResult?.result().switch().name).toBe('txBadAuth');

    const account = await client.server.getAccount(alice.publicKey());
    account.incrementSequenceNumber();
    const skip = new TransactionBuilder(account, {
      fee: '100',
      networkPassphrase: client.sandbox.networkPassphrase,
    })
      .addOperation(Operation.bumpSequence({ bumpTo: '0' }))
      .setTimeout(30)
      .build();
    skip.sign(alice);
    const res = await client.server.sendTransaction(skip);
    expect(res.status).toBe('ERROR');
    expect(res.errorResult?.result().switch().name).toBe('txBadSeq');
  });

  it('getTransaction says NOT_FOUND until the ledger closes', async () => {
    const alice = await client.fund();
    const bob = await client.fund();
    const tx = await client.build(
      alice,
      Operation.payment({ destination: bob.publicKey(), asset: Asset.native(), amount: '1' }),
    );
    tx.sign(alice);
    const sent = await client.server.sendTransaction(tx);
    expect(sent.status).toBe('PENDING');
    const early = await client.server.getTransaction(sent.hash);
    expect(early.status).toBe('NOT_FOUND');
    await client.sandbox.closeLedger();
    const done = await client.server.getTransaction(sent.hash);
    expect(done.status).toBe('SUCCESS');
    // Re-sending an applied transaction is a stale sequence number, not a duplicate.
    const replay = await client.server.sendTransaction(tx);
    expect(replay.status).toBe('ERROR');
    expect(replay.errorResult?.result().switch().name).toBe('txBadSeq');
  });

  it('uploads, deploys and invokes a contract end to end through prepareTransaction', async () => {
    const alice = await client.fund();
    const wasm = await kitchenSinkWasm();
    const contract = await client.deploy(alice, wasm);
    expect(contract).toMatch(/^C[A-Z2-7]{55}$/);
    const res = await client.invoke(alice, contract, 'add', [
      nativeToScVal(-7, { type: 'i32' }),
      nativeToScVal(50, { type: 'i32' }),
    ]);
    expect(res.status).toBe('SUCCESS');
    expect(scValToNative(res.returnValue as xdr.ScVal)).toBe(43);
    // Soroban fees: inclusion fee plus the resource fee actually consumed, never more than declared.
    const charged = res.resultXdr.feeCharged().toBigInt();
    const declared = (res.envelopeXdr.v1().tx().ext().sorobanData() as xdr.SorobanTransactionData)
      .resourceFee()
      .toBigInt();
    expect(charged).toBeGreaterThan(100n);
    expect(charged).toBeLessThanOrEqual(100n + declared);
  });

  it('charges the same resource fee for the same invocation every time', async () => {
    const alice = await client.fund();
    const contract = await client.deploy(alice, await kitchenSinkWasm());
    const fees: string[] = [];
    for (let i = 0; i < 2; i++) {
      const tx = await client.build(
        alice,
        Operation.invokeContractFunction({
          contract,
          function: 'add',
          args: [nativeToScVal(1, { type: 'i32' }), nativeToScVal(2, { type: 'i32' })],
        }),
      );
      const sim = await client.server.simulateTransaction(tx);
      if (!('minResourceFee' in sim)) throw new Error('simulation failed');
      fees.push(sim.minResourceFee);
    }
    expect(fees[0]).toBe(fees[1]);
    expect(Number(fees[0])).toBeGreaterThan(0);
  });

  it('lists transactions and ledgers with getTransactions/getLedgers', async () => {
    const alice = await client.fund();
    const bob = await client.fund();
    const tx = await client.build(
      alice,
      Operation.payment({ destination: bob.publicKey(), asset: Asset.native(), amount: '3' }),
    );
    tx.sign(alice);
    const res = await client.sendAndPoll(tx);
    const page = await client.server.getTransactions({ startLedger: res.ledger, pagination: { limit: 10 } });
    const listed = page.transactions.find((t) => t.txHash === res.txHash);
    expect(listed?.status).toBe('SUCCESS');
    expect(listed?.ledger).toBe(res.ledger);

    const ledgers = await client.server.getLedgers({ startLedger: res.ledger, pagination: { limit: 2 } });
    expect(ledgers.ledgers[0]?.sequence).toBe(res.ledger);
    expect(ledgers.ledgers[0]?.headerXdr.header().ledgerSeq()).toBe(res.ledger);
  });

  it('rolls back every operation of a failed multi-operation transaction', async () => {
    const alice = await client.fund();
    const bob = await client.fund();
    const ghost = Keypair.random();
    const account = await client.server.getAccount(alice.publicKey());
    const tx = new TransactionBuilder(account, {
      fee: '100',
      networkPassphrase: client.sandbox.networkPassphrase,
    })
      .addOperation(Operation.payment({ destination: bob.publicKey(), asset: Asset.native(), amount: '10' }))
      .addOperation(
        Operation.payment({ destination: ghost.publicKey(), asset: Asset.native(), amount: '10' }),
      )
      .setTimeout(30)
      .build();
    tx.sign(alice);
    const res = await client.sendAndPoll(tx);
    expect(res.status).toBe('FAILED');
    const codes = res.resultXdr
      .result()
      .results()
      .map((r) => r.tr().paymentResult().switch().name);
    expect(codes).toEqual(['paymentSuccess', 'paymentNoDestination']);
    expect(res.resultXdr.feeCharged().toBigInt()).toBe(200n);
    expect(await client.balance(bob.publicKey())).toBe(10_000n * STROOPS_PER_XLM);
    expect(await client.balance(alice.publicKey())).toBe(10_000n * STROOPS_PER_XLM - 200n);
  });

  it('answers JSON-RPC errors and CORS preflights like stellar-rpc', async () => {
    type Reply = { id: number; error: { code: number } };
    const post = async <T = Reply>(body: unknown): Promise<T> => {
      const res = await fetch(client.sandbox.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await res.json()) as T;
    };
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'noSuchMethod' })).error.code).toBe(-32601);
    const bad = await post({ jsonrpc: '2.0', id: 2, method: 'getLedgerEntries', params: { keys: ['%%'] } });
    expect(bad.error.code).toBe(-32602);
    const batch = await post<Reply[]>([
      { jsonrpc: '2.0', id: 3, method: 'getHealth' },
      { jsonrpc: '2.0', id: 4, method: 'getNetwork' },
    ]);
    expect(batch.map((r) => r.id)).toEqual([3, 4]);
    const preflight = await fetch(client.sandbox.rpcUrl, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('soroban sandbox: manual ledger closing (ledgerCloseMs 0)', () => {
  let client: DappClient;

  beforeAll(async () => {
    client = await DappClient.start({ ledgerCloseMs: 0 });
  });
  afterAll(() => client.stop());

  it('only closes ledgers on demand, and Friendbot closes its own', async () => {
    const start = (await client.server.getLatestLedger()).sequence;
    await new Promise((r) => setTimeout(r, 250));
    expect((await client.server.getLatestLedger()).sequence).toBe(start);
    const kp = Keypair.random();
    await client.server.requestAirdrop(kp.publicKey());
    expect((await client.server.getLatestLedger()).sequence).toBe(start + 1);
    expect(await client.sandbox.closeLedger()).toBe(start + 2);
  });
});
