import {
  Address,
  authorizeEntry,
  hash,
  Keypair,
  Operation,
  rpc,
  type Transaction,
  TransactionBuilder,
  xdr,
} from '@stellar/stellar-sdk';
import {
  type SorobanSandbox,
  type SorobanSandboxOptions,
  startSorobanSandbox,
} from '../../../src/stellar/sandbox/index.ts';

export type TxResult =
  | rpc.Api.GetSuccessfulTransactionResponse
  | (rpc.Api.GetFailedTransactionResponse & { returnValue?: undefined });

/** What a dApp does with the real SDK, wrapped so tests read as behaviour. */
export class DappClient {
  readonly server: rpc.Server;

  private constructor(readonly sandbox: SorobanSandbox) {
    this.server = new rpc.Server(sandbox.rpcUrl, { allowHttp: true });
  }

  static async start(opts: SorobanSandboxOptions = {}): Promise<DappClient> {
    return new DappClient(await startSorobanSandbox({ ledgerCloseMs: 100, ...opts }));
  }

  stop(): Promise<void> {
    return this.sandbox.stop();
  }

  async fund(kp = Keypair.random()): Promise<Keypair> {
    await this.server.requestAirdrop(kp.publicKey(), this.sandbox.friendbotUrl);
    return kp;
  }

  async build(source: Keypair, op: xdr.Operation, fee = '100'): Promise<Transaction> {
    const account = await this.server.getAccount(source.publicKey());
    return new TransactionBuilder(account, { fee, networkPassphrase: this.sandbox.networkPassphrase })
      .addOperation(op)
      .setTimeout(60)
      .build();
  }

  async sendAndPoll(tx: Transaction): Promise<TxResult> {
    const sent = await this.server.sendTransaction(tx);
    if (sent.status !== 'PENDING') {
      throw new Error(`sendTransaction ${sent.status}: ${sent.errorResult?.result().switch().name}`);
    }
    const res = await this.server.pollTransaction(sent.hash, { attempts: 100, sleepStrategy: () => 50 });
    if (res.status === 'NOT_FOUND') throw new Error(`transaction ${sent.hash} never landed`);
    return res as TxResult;
  }

  /** prepareTransaction (simulate + assemble), sign, send, poll — the standard dApp path. */
  async submit(source: Keypair, op: xdr.Operation, signAuth: Keypair[] = []): Promise<TxResult> {
    let tx = await this.server.prepareTransaction(await this.build(source, op));
    if (signAuth.length > 0) tx = await this.signAuthEntries(tx, signAuth);
    tx.sign(source);
    return this.sendAndPoll(tx);
  }

  async signAuthEntries(tx: Transaction, signers: Keypair[]): Promise<Transaction> {
    const latest = await this.server.getLatestLedger();
    const env = tx.toEnvelope();
    const op = env.v1().tx().operations()[0] as xdr.Operation;
    const ihf = op.body().invokeHostFunctionOp();
    const signed = await Promise.all(
      ihf.auth().map(async (entry) => {
        if (entry.credentials().switch().name !== 'sorobanCredentialsAddress') return entry;
        const addr = Address.fromScAddress(entry.credentials().address().address()).toString();
        const kp = signers.find((s) => s.publicKey() === addr);
        return kp ? authorizeEntry(entry, kp, latest.sequence + 100, this.sandbox.networkPassphrase) : entry;
      }),
    );
    ihf.auth(signed);
    return TransactionBuilder.fromXDR(env.toXDR('base64'), this.sandbox.networkPassphrase) as Transaction;
  }

  async upload(source: Keypair, wasm: Buffer): Promise<Buffer> {
    const res = await this.submit(source, Operation.uploadContractWasm({ wasm }));
    if (res.status !== 'SUCCESS') throw new Error('upload failed');
    return hash(wasm);
  }

  async deploy(source: Keypair, wasm: Buffer, constructorArgs?: xdr.ScVal[]): Promise<string> {
    const wasmHash = await this.upload(source, wasm);
    const res = await this.submit(
      source,
      Operation.createCustomContract({
        address: Address.fromString(source.publicKey()),
        wasmHash,
        salt: Keypair.random().rawPublicKey(),
        constructorArgs,
      }),
    );
    if (res.status !== 'SUCCESS' || !res.returnValue) throw new Error('deploy failed');
    return Address.fromScVal(res.returnValue).toString();
  }

  invoke(source: Keypair, contract: string, fn: string, args: xdr.ScVal[] = [], signAuth: Keypair[] = []) {
    return this.submit(source, Operation.invokeContractFunction({ contract, function: fn, args }), signAuth);
  }

  async balance(id: string): Promise<bigint> {
    const res = await this.server.getLedgerEntries(
      xdr.LedgerKey.account(
        new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(id).xdrAccountId() }),
      ),
    );
    const entry = res.entries[0];
    if (!entry) throw new Error(`account ${id} not found`);
    return entry.val.account().balance().toBigInt();
  }

  /** Closes ledgers until `seq` is the latest one. */
  async waitForLedger(seq: number): Promise<void> {
    while ((await this.server.getLatestLedger()).sequence < seq) await this.sandbox.closeLedger();
  }
}

/** The message of the "error" diagnostic event the sandbox attaches to failed invocations. */
export function failureMessage(res: { diagnosticEventsXdr?: xdr.DiagnosticEvent[] }): string {
  return (res.diagnosticEventsXdr ?? [])
    .map((d) => d.event().body().v0())
    .filter(
      (b) => b.topics()[0]?.switch().name === 'scvSymbol' && b.topics()[0]?.sym().toString() === 'error',
    )
    .map((b) => b.data().str().toString())
    .join('\n');
}
