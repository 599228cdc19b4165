import { hash, xdr } from '@stellar/stellar-sdk';

/** One ledger entry as stored; XDR kept as base64 so snapshots and copies are cheap and immutable. */
export interface StoredEntry {
  entryXdr: string;
  /** Only Soroban entries (contract data/code) carry a TTL. */
  liveUntil?: number;
  lastModified: number;
}

export type EntryStatus = 'live' | 'archived' | 'missing';

export function keyToB64(key: xdr.LedgerKey): string {
  return key.toXDR('base64');
}

export function ledgerKeyOf(entry: xdr.LedgerEntry): xdr.LedgerKey {
  const data = entry.data();
  switch (data.switch().name) {
    case 'account':
      return xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: data.account().accountId() }));
    case 'contractData': {
      const d = data.contractData();
      return xdr.LedgerKey.contractData(
        new xdr.LedgerKeyContractData({ contract: d.contract(), key: d.key(), durability: d.durability() }),
      );
    }
    case 'contractCode':
      return xdr.LedgerKey.contractCode(new xdr.LedgerKeyContractCode({ hash: data.contractCode().hash() }));
    default:
      throw new Error(`ledger entry type ${data.switch().name} is not supported by the sandbox`);
  }
}

export function isSorobanKey(key: xdr.LedgerKey): boolean {
  const n = key.switch().name;
  return n === 'contractData' || n === 'contractCode';
}

export function isTemporaryKey(key: xdr.LedgerKey): boolean {
  return key.switch().name === 'contractData' && key.contractData().durability().name === 'temporary';
}

/** keyHash of the TTL entry that tracks a Soroban entry, as the network computes it. */
export function ttlKeyHash(keyB64: string): string {
  return hash(Buffer.from(keyB64, 'base64')).toString('hex');
}

/** The live ledger state: what a validator's bucket list would hold (archived entries included). */
export class LedgerState {
  readonly entries = new Map<string, StoredEntry>();
  private readonly ttlIndex = new Map<string, string>();

  get(keyB64: string): StoredEntry | undefined {
    return this.entries.get(keyB64);
  }

  set(keyB64: string, stored: StoredEntry): void {
    this.entries.set(keyB64, stored);
    if (stored.liveUntil !== undefined) this.ttlIndex.set(ttlKeyHash(keyB64), keyB64);
  }

  delete(keyB64: string): void {
    this.entries.delete(keyB64);
    this.ttlIndex.delete(ttlKeyHash(keyB64));
  }

  keyForTtlHash(hexHash: string): string | undefined {
    return this.ttlIndex.get(hexHash);
  }

  /**
   * Liveness as seen by a transaction applied in `ledgerSeq`: expired temporary entries are gone,
   * expired persistent entries are archived (still present, but unusable until restored).
   */
  status(keyB64: string, ledgerSeq: number): EntryStatus {
    const e = this.entries.get(keyB64);
    if (!e) return 'missing';
    if (e.liveUntil === undefined || e.liveUntil >= ledgerSeq) return 'live';
    const key = xdr.LedgerKey.fromXDR(keyB64, 'base64');
    return isTemporaryKey(key) ? 'missing' : 'archived';
  }

  /**
   * Drops the temporary entries whose TTL ended before `ledgerSeq`, like the network's eviction scan
   * does; returns how many.
   */
  evictExpiredTemporary(ledgerSeq: number): number {
    let evicted = 0;
    for (const [k, e] of this.entries) {
      if (
        e.liveUntil !== undefined &&
        e.liveUntil < ledgerSeq &&
        isTemporaryKey(xdr.LedgerKey.fromXDR(k, 'base64'))
      ) {
        this.delete(k);
        evicted++;
      }
    }
    return evicted;
  }
}
