import { xdr } from '@stellar/stellar-sdk';
import { ArchivedEntryError, ErrCode, ErrType, HostError } from './errors.ts';
import { isTemporaryKey, keyToB64, type LedgerState, type StoredEntry } from './ledger-state.ts';
import type { NetworkConfig } from './network-config.ts';

export type StorageMode = 'enforce' | 'record';

export interface Footprint {
  readOnly: Set<string>;
  readWrite: Set<string>;
}

export interface TtlChange {
  before: number;
  after: number;
}

/**
 * The storage a single transaction sees. In `enforce` mode every access must be covered by the
 * declared footprint (as validators require); in `record` mode (simulation) accesses build the
 * footprint instead, and archived entries are treated as restored so simulation can proceed.
 */
export class TxStorage {
  readonly recorded: Footprint = { readOnly: new Set(), readWrite: new Set() };
  /** Persistent entries simulation found archived: they need a RestoreFootprint first. */
  readonly archivedTouched = new Set<string>();
  private changes = new Map<string, StoredEntry | null>();
  readonly ttlChanges = new Map<string, TtlChange>();

  constructor(
    private readonly state: LedgerState,
    readonly ledgerSeq: number,
    readonly config: NetworkConfig,
    readonly mode: StorageMode,
    private readonly footprint: Footprint = { readOnly: new Set(), readWrite: new Set() },
  ) {}

  checkpoint(): { changes: Map<string, StoredEntry | null>; ttl: Map<string, TtlChange> } {
    return { changes: new Map(this.changes), ttl: new Map(this.ttlChanges) };
  }

  rollback(cp: { changes: Map<string, StoredEntry | null>; ttl: Map<string, TtlChange> }): void {
    this.changes = new Map(cp.changes);
    this.ttlChanges.clear();
    for (const [k, v] of cp.ttl) this.ttlChanges.set(k, v);
  }

  private access(keyB64: string, write: boolean): void {
    if (this.mode === 'record') {
      if (write) {
        this.recorded.readOnly.delete(keyB64);
        this.recorded.readWrite.add(keyB64);
      } else if (!this.recorded.readWrite.has(keyB64)) {
        this.recorded.readOnly.add(keyB64);
      }
      return;
    }
    if (this.footprint.readWrite.has(keyB64)) return;
    if (!write && this.footprint.readOnly.has(keyB64)) return;
    const what =
      write && this.footprint.readOnly.has(keyB64)
        ? 'is read-only in the footprint'
        : 'is not in the footprint';
    throw new HostError(ErrType.Storage, ErrCode.ExceededLimit, `ledger key ${keyB64} ${what}`);
  }

  /** Raw view (changes over state) without liveness rules or footprint checks. */
  peek(keyB64: string): StoredEntry | undefined {
    if (this.changes.has(keyB64)) return this.changes.get(keyB64) ?? undefined;
    return this.state.get(keyB64);
  }

  private live(keyB64: string): StoredEntry | undefined {
    const e = this.peek(keyB64);
    if (!e) return undefined;
    if (e.liveUntil === undefined || e.liveUntil >= this.ledgerSeq) return e;
    if (isTemporaryKey(xdr.LedgerKey.fromXDR(keyB64, 'base64'))) return undefined;
    if (this.mode === 'enforce') throw new ArchivedEntryError(keyB64);
    // Simulation pretends the entry was restored, exactly as a RestoreFootprint would leave it.
    this.archivedTouched.add(keyB64);
    return { ...e, liveUntil: this.ledgerSeq + this.config.minPersistentTtl - 1 };
  }

  get(key: xdr.LedgerKey): xdr.LedgerEntry | undefined {
    const k = keyToB64(key);
    this.access(k, false);
    const e = this.live(k);
    return e ? xdr.LedgerEntry.fromXDR(e.entryXdr, 'base64') : undefined;
  }

  getStored(key: xdr.LedgerKey): StoredEntry | undefined {
    const k = keyToB64(key);
    this.access(k, false);
    return this.live(k);
  }

  put(key: xdr.LedgerKey, entry: xdr.LedgerEntry, liveUntilOverride?: number): void {
    const k = keyToB64(key);
    this.access(k, true);
    const existing = this.live(k);
    let liveUntil: number | undefined;
    if (key.switch().name === 'contractData' || key.switch().name === 'contractCode') {
      const minTtl = isTemporaryKey(key) ? this.config.minTemporaryTtl : this.config.minPersistentTtl;
      liveUntil = liveUntilOverride ?? existing?.liveUntil ?? this.ledgerSeq + minTtl - 1;
      if (!existing?.liveUntil) this.noteTtl(k, this.ledgerSeq - 1, liveUntil);
    }
    entry.lastModifiedLedgerSeq(this.ledgerSeq);
    this.changes.set(k, { entryXdr: entry.toXDR('base64'), liveUntil, lastModified: this.ledgerSeq });
  }

  del(key: xdr.LedgerKey): void {
    const k = keyToB64(key);
    this.access(k, true);
    this.changes.set(k, null);
  }

  /** Extends to `ledgerSeq + extendTo` when the remaining TTL is at most `threshold` (host semantics). */
  extendTtl(key: xdr.LedgerKey, threshold: number, extendTo: number): void {
    const k = keyToB64(key);
    this.access(k, false);
    const e = this.live(k);
    if (!e)
      throw new HostError(ErrType.Storage, ErrCode.MissingValue, `cannot extend TTL of missing entry ${k}`);
    if (extendTo > this.config.maxEntryTtl - 1) {
      throw new HostError(
        ErrType.Storage,
        ErrCode.InvalidInput,
        `extend_to ${extendTo} exceeds max entry TTL`,
      );
    }
    if (threshold > extendTo) {
      throw new HostError(ErrType.Storage, ErrCode.InvalidInput, 'TTL threshold must not exceed extend_to');
    }
    const current = e.liveUntil ?? 0;
    if (current - this.ledgerSeq > threshold) return;
    this.setLiveUntil(k, e, this.ledgerSeq + extendTo);
  }

  /** Used by ExtendFootprintTtl / RestoreFootprint ops: sets liveUntil if it grows. */
  setLiveUntil(k: string, e: StoredEntry, liveUntil: number): void {
    const current = e.liveUntil ?? 0;
    if (liveUntil <= current) return;
    this.noteTtl(k, current, liveUntil);
    this.changes.set(k, { ...e, liveUntil });
  }

  private noteTtl(k: string, before: number, after: number): void {
    const prev = this.ttlChanges.get(k);
    this.ttlChanges.set(k, { before: prev?.before ?? before, after });
  }

  /** Commits the changes into ledger state; returns what changed (for meta). */
  commit(): Array<{ keyB64: string; before: StoredEntry | undefined; after: StoredEntry | null }> {
    const out: Array<{ keyB64: string; before: StoredEntry | undefined; after: StoredEntry | null }> = [];
    for (const [k, v] of this.changes) {
      out.push({ keyB64: k, before: this.state.get(k), after: v });
      if (v === null) this.state.delete(k);
      else this.state.set(k, v);
    }
    return out;
  }

  changedEntries(): Map<string, StoredEntry | null> {
    return this.changes;
  }
}
