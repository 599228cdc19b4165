import { xdr } from '@stellar/stellar-sdk';
import { type StoredEntry, ttlKeyHash } from './ledger-state.ts';

function ttlEntry(keyB64: string, liveUntil: number, lastModified: number): xdr.LedgerEntry {
  return new xdr.LedgerEntry({
    lastModifiedLedgerSeq: lastModified,
    data: xdr.LedgerEntryData.ttl(
      new xdr.TtlEntry({ keyHash: Buffer.from(ttlKeyHash(keyB64), 'hex'), liveUntilLedgerSeq: liveUntil }),
    ),
    ext: new xdr.LedgerEntryExt(0),
  });
}

export function ttlLedgerKey(keyB64: string): xdr.LedgerKey {
  return xdr.LedgerKey.ttl(new xdr.LedgerKeyTtl({ keyHash: Buffer.from(ttlKeyHash(keyB64), 'hex') }));
}

const entry = (e: StoredEntry) => xdr.LedgerEntry.fromXDR(e.entryXdr, 'base64');

/** LedgerEntryChanges for meta, in the state/updated/created/removed shape core emits. */
export function entryChanges(
  diffs: Array<{ keyB64: string; before: StoredEntry | undefined; after: StoredEntry | null }>,
): xdr.LedgerEntryChange[] {
  const out: xdr.LedgerEntryChange[] = [];
  for (const { keyB64, before, after } of diffs) {
    const key = xdr.LedgerKey.fromXDR(keyB64, 'base64');
    if (!before && after) {
      out.push(xdr.LedgerEntryChange.ledgerEntryCreated(entry(after)));
      if (after.liveUntil !== undefined) {
        out.push(
          xdr.LedgerEntryChange.ledgerEntryCreated(ttlEntry(keyB64, after.liveUntil, after.lastModified)),
        );
      }
    } else if (before && after === null) {
      out.push(xdr.LedgerEntryChange.ledgerEntryState(entry(before)));
      out.push(xdr.LedgerEntryChange.ledgerEntryRemoved(key));
      if (before.liveUntil !== undefined) {
        out.push(
          xdr.LedgerEntryChange.ledgerEntryState(ttlEntry(keyB64, before.liveUntil, before.lastModified)),
        );
        out.push(xdr.LedgerEntryChange.ledgerEntryRemoved(ttlLedgerKey(keyB64)));
      }
    } else if (before && after) {
      if (before.entryXdr !== after.entryXdr) {
        out.push(xdr.LedgerEntryChange.ledgerEntryState(entry(before)));
        out.push(xdr.LedgerEntryChange.ledgerEntryUpdated(entry(after)));
      }
      if (after.liveUntil !== undefined && before.liveUntil !== after.liveUntil) {
        out.push(
          xdr.LedgerEntryChange.ledgerEntryState(
            ttlEntry(keyB64, before.liveUntil ?? 0, before.lastModified),
          ),
        );
        out.push(
          xdr.LedgerEntryChange.ledgerEntryUpdated(ttlEntry(keyB64, after.liveUntil, after.lastModified)),
        );
      }
    }
  }
  return out;
}

export { ttlEntry };
