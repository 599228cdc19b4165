import { hash, Keypair, StrKey, xdr } from '@stellar/stellar-sdk';
import { accountLedgerKey, newAccountEntry, readAccount } from './accounts.ts';
import { contractAddress, contractIdFromPreimage } from './contract-deploy.ts';
import type { LedgerInfo } from './host.ts';
import { buildLedger, type ClosedLedger } from './ledger-header.ts';
import { contractInstanceKey } from './ledger-keys.ts';
import { LedgerState } from './ledger-state.ts';
import type { NetworkConfig } from './network-config.ts';
import { type SimulateResponse, simulate } from './simulate.ts';
import { nativeAssetInstanceEntry, nativeAssetPreimage } from './stellar-asset.ts';
import { applyTransaction } from './tx-apply.ts';
import { TxStorage } from './tx-storage.ts';
import { type ParsedTx, parseEnvelope, TxRejectedError, validateTx } from './tx-validate.ts';

export interface TxRecord {
  hash: string;
  status: 'SUCCESS' | 'FAILED';
  ledger: number;
  createdAt: number;
  applicationOrder: number;
  envelopeXdr: string;
  resultXdr: string;
  resultMetaXdr: string;
  contractEventsXdr: string[][];
  diagnosticEventsXdr: string[];
}

export interface EventRecord {
  type: 'contract';
  ledger: number;
  ledgerClosedAt: string;
  contractId: string;
  id: string;
  operationIndex: number;
  transactionIndex: number;
  txHash: string;
  inSuccessfulContractCall: boolean;
  topic: string[];
  value: string;
}

export interface SendResult {
  status: 'PENDING' | 'DUPLICATE' | 'ERROR';
  hash: string;
  errorResultXdr?: string;
}

export interface NodeSnapshot {
  version: 1;
  passphrase: string;
  ledgers: ClosedLedger[];
  entries: Array<[string, string, number | null, number]>;
  txs: TxRecord[];
  events: EventRecord[];
}

/** Ledgers (with their transactions and events) kept, like stellar-rpc's retention window. */
export const HISTORY_LEDGERS = 2000;

/** The ledger-closing core: state, mempool, history. Everything RPC and Friendbot need. */
export class SandboxNode {
  readonly state = new LedgerState();
  readonly networkId: Buffer;
  readonly root: Keypair;
  private ledgers: ClosedLedger[] = [];
  private readonly txs = new Map<string, TxRecord>();
  private events: EventRecord[] = [];
  private pending: Array<{ parsed: ParsedTx; envelopeXdr: string }> = [];
  private waiters: Array<(seq: number) => void> = [];
  /**
   * Whether the last close changed more than the ledger history (applied transactions, evicted
   * entries): such a close needs a whole snapshot, an empty one only its ledger appended.
   */
  lastCloseChangedState = false;
  /** Told about transactions that failed because of a sandbox bug (for logging). */
  onInternalError?: (txHash: string, error: unknown) => void;
  /** Seconds the network's clock runs ahead of this machine's (a test moves it to expire envelopes). */
  clockAheadSeconds = 0;

  constructor(
    readonly config: NetworkConfig,
    snapshot?: NodeSnapshot,
  ) {
    this.networkId = hash(Buffer.from(config.passphrase));
    // The standalone network's root account holds every lumen; Friendbot pays from it.
    this.root = Keypair.master(config.passphrase);
    if (snapshot) this.restore(snapshot);
    else this.genesis();
  }

  private genesis(): void {
    const total = 100_000_000_000n * 10_000_000n;
    const key = accountLedgerKey(this.root.publicKey()).toXDR('base64');
    const entry = newAccountEntry(
      { id: this.root.publicKey(), balance: total, seqNum: 0n, numSubEntries: 0 },
      1,
    );
    this.state.set(key, { entryXdr: entry.toXDR('base64'), lastModified: 1 });
    // Like testnet/mainnet, the native XLM asset contract already exists (friendbot relies on it).
    const sac = this.nativeAssetAddress();
    this.state.set(contractInstanceKey(sac).toXDR('base64'), {
      entryXdr: nativeAssetInstanceEntry(sac, 1).toXDR('base64'),
      liveUntil: this.config.maxEntryTtl,
      lastModified: 1,
    });
    this.ledgers.push(
      buildLedger(this.config, 1, Math.floor(Date.now() / 1000), '00'.repeat(32), Buffer.alloc(0)),
    );
  }

  private restore(s: NodeSnapshot): void {
    this.ledgers = s.ledgers;
    for (const [k, entryXdr, liveUntil, lastModified] of s.entries) {
      this.state.set(k, { entryXdr, liveUntil: liveUntil ?? undefined, lastModified });
    }
    for (const t of s.txs) this.txs.set(t.hash, t);
    this.events = s.events;
  }

  snapshot(): NodeSnapshot {
    return {
      version: 1,
      passphrase: this.config.passphrase,
      ledgers: this.ledgers.slice(-HISTORY_LEDGERS),
      entries: [...this.state.entries].map(([k, e]) => [k, e.entryXdr, e.liveUntil ?? null, e.lastModified]),
      txs: [...this.txs.values()],
      events: this.events,
    };
  }

  get latest(): ClosedLedger {
    return this.ledgers[this.ledgers.length - 1] as ClosedLedger;
  }

  get oldest(): ClosedLedger {
    return this.ledgers[0] as ClosedLedger;
  }

  ledgerBySeq(seq: number): ClosedLedger | undefined {
    return this.ledgers.find((l) => l.sequence === seq);
  }

  /** Ledger info for work done "now": the ledger that will close next. */
  nextLedgerInfo(): LedgerInfo {
    const latest = this.latest;
    // Close time follows the wall clock. Ledgers closing faster than once a second share a
    // timestamp (core would insist on strictly increasing ones) rather than drifting into the
    // future, which would make every client's time bounds fail.
    return {
      sequence: latest.sequence + 1,
      timestamp: BigInt(Math.max(Math.floor(Date.now() / 1000) + this.clockAheadSeconds, latest.closeTime)),
      protocolVersion: this.config.protocolVersion,
      networkId: this.networkId,
    };
  }

  getTx(hashHex: string): TxRecord | undefined {
    return this.txs.get(hashHex);
  }

  allTxs(): TxRecord[] {
    return [...this.txs.values()];
  }

  allLedgers(): readonly ClosedLedger[] {
    return this.ledgers;
  }

  allEvents(): readonly EventRecord[] {
    return this.events;
  }

  submit(envelopeXdr: string): SendResult {
    let parsed: ParsedTx;
    try {
      parsed = parseEnvelope(envelopeXdr, this.config.passphrase);
    } catch (e) {
      const err = e instanceof TxRejectedError ? e : new TxRejectedError('txMalformed', String(e));
      return { status: 'ERROR', hash: '', errorResultXdr: err.toResult().toXDR('base64') };
    }
    // Only queued transactions are duplicates; an applied one simply fails validation (bad seq).
    if (this.pending.some((p) => p.parsed.hash === parsed.hash)) {
      return { status: 'DUPLICATE', hash: parsed.hash };
    }
    const info = this.nextLedgerInfo();
    try {
      const view = new TxStorage(this.state, info.sequence, this.config, 'record');
      const acct = readAccount(view, parsed.source);
      const queued = this.pending.filter((p) => p.parsed.source === parsed.source).length;
      const expected = acct ? acct.seqNum + 1n + BigInt(queued) : undefined;
      validateTx(parsed, this.state, this.config, info.sequence, info.timestamp, expected);
    } catch (e) {
      if (!(e instanceof TxRejectedError)) throw e;
      return { status: 'ERROR', hash: parsed.hash, errorResultXdr: e.toResult().toXDR('base64') };
    }
    this.pending.push({ parsed, envelopeXdr });
    return { status: 'PENDING', hash: parsed.hash };
  }

  simulate(envelopeXdr: string, authMode?: string): SimulateResponse {
    const parsed = parseEnvelope(envelopeXdr, this.config.passphrase);
    return simulate(parsed, this.state, this.config, this.nextLedgerInfo(), this.latest.sequence, authMode);
  }

  /** Closes the next ledger, applying queued transactions in submission order. */
  closeLedger(): number {
    const info = this.nextLedgerInfo();
    const seq = info.sequence;
    const closeTime = Number(info.timestamp);
    const evicted = this.state.evictExpiredTemporary(seq);
    const batch = this.pending;
    this.pending = [];
    this.lastCloseChangedState = evicted > 0 || batch.length > 0;
    const closedAt = new Date(closeTime * 1000).toISOString();
    batch.forEach(({ parsed, envelopeXdr }, i) => {
      const order = i + 1;
      let record: TxRecord;
      try {
        const out = applyTransaction(parsed, this.state, this.config, info);
        record = {
          hash: parsed.hash,
          status: out.success ? 'SUCCESS' : 'FAILED',
          ledger: seq,
          createdAt: closeTime,
          applicationOrder: order,
          envelopeXdr,
          resultXdr: out.result.toXDR('base64'),
          resultMetaXdr: out.meta.toXDR('base64'),
          contractEventsXdr: [out.events.map((e) => e.toXDR('base64'))],
          diagnosticEventsXdr: out.diagnostics.map((d) => d.toXDR('base64')),
        };
        out.events.forEach((ev, evIndex) => {
          this.events.push(eventRecord(ev, seq, closedAt, order, evIndex, parsed.hash));
        });
      } catch (caught) {
        // A sandbox bug must not take the whole ledger down: that one tx fails as txInternalError.
        const e =
          caught instanceof TxRejectedError
            ? caught
            : new TxRejectedError(
                'txInternalError',
                caught instanceof Error ? caught.message : String(caught),
              );
        if (e.code === 'txInternalError') this.onInternalError?.(parsed.hash, caught);
        record = {
          hash: parsed.hash,
          status: 'FAILED',
          ledger: seq,
          createdAt: closeTime,
          applicationOrder: order,
          envelopeXdr,
          resultXdr: e.toResult().toXDR('base64'),
          resultMetaXdr: emptyMeta().toXDR('base64'),
          contractEventsXdr: [],
          diagnosticEventsXdr: [],
        };
      }
      this.txs.set(parsed.hash, record);
    });
    const txSetInput = Buffer.concat(batch.map((b) => Buffer.from(b.parsed.hash, 'hex')));
    this.ledgers.push(buildLedger(this.config, seq, closeTime, this.latest.hash, txSetInput));
    if (this.ledgers.length > HISTORY_LEDGERS) this.prune();
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w(seq);
    return seq;
  }

  /** Keeps history (ledgers, transactions, events) within the retention window, like stellar-rpc. */
  private prune(): void {
    this.ledgers = this.ledgers.slice(-HISTORY_LEDGERS);
    const oldest = this.oldest.sequence;
    for (const [h, t] of this.txs) if (t.ledger < oldest) this.txs.delete(h);
    this.events = this.events.filter((e) => e.ledger >= oldest);
  }

  nextClose(): Promise<number> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  nativeAssetAddress(): xdr.ScAddress {
    return contractAddress(contractIdFromPreimage(this.networkId, nativeAssetPreimage()));
  }

  /** Next sequence number for `source`, counting its transactions still in the queue. */
  nextSequence(source: string): bigint {
    const view = new TxStorage(this.state, this.nextLedgerInfo().sequence, this.config, 'record');
    const acct = readAccount(view, source);
    const queued = this.pending.filter((p) => p.parsed.source === source).length;
    return (acct?.seqNum ?? 0n) + BigInt(queued) + 1n;
  }

  accountExists(id: string): boolean {
    return this.state.status(accountLedgerKey(id).toXDR('base64'), this.latest.sequence) === 'live';
  }
}

function emptyMeta(): xdr.TransactionMeta {
  return new xdr.TransactionMeta(
    4,
    new xdr.TransactionMetaV4({
      ext: new xdr.ExtensionPoint(0),
      txChangesBefore: [],
      operations: [],
      txChangesAfter: [],
      sorobanMeta: null,
      events: [],
      diagnosticEvents: [],
    }),
  );
}

/** TOID-based event id, as stellar-rpc formats it ("%019d-%010d"). */
export function eventId(ledger: number, txIndex: number, opIndex: number, evIndex: number): string {
  const toid = (BigInt(ledger) << 32n) | (BigInt(txIndex) << 12n) | BigInt(opIndex);
  return `${toid.toString().padStart(19, '0')}-${String(evIndex).padStart(10, '0')}`;
}

function eventRecord(
  ev: xdr.ContractEvent,
  ledger: number,
  closedAt: string,
  txIndex: number,
  evIndex: number,
  txHash: string,
): EventRecord {
  const body = ev.body().v0();
  const cid = ev.contractId();
  return {
    type: 'contract',
    ledger,
    ledgerClosedAt: closedAt,
    contractId: cid ? StrKey.encodeContract(cid as unknown as Buffer) : '',
    id: eventId(ledger, txIndex, 0, evIndex),
    operationIndex: 0,
    transactionIndex: txIndex,
    txHash,
    inSuccessfulContractCall: true,
    topic: body.topics().map((t) => t.toXDR('base64')),
    value: body.data().toXDR('base64'),
  };
}
