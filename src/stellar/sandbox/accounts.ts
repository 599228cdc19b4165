import { Keypair, StrKey, xdr } from '@stellar/stellar-sdk';
import type { TxStorage } from './tx-storage.ts';

export function accountLedgerKey(accountId: string): xdr.LedgerKey {
  return xdr.LedgerKey.account(
    new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(accountId).xdrAccountId() }),
  );
}

export interface AccountState {
  id: string;
  balance: bigint;
  seqNum: bigint;
  numSubEntries: number;
}

export function newAccountEntry(a: AccountState, ledgerSeq: number): xdr.LedgerEntry {
  return new xdr.LedgerEntry({
    lastModifiedLedgerSeq: ledgerSeq,
    data: xdr.LedgerEntryData.account(
      new xdr.AccountEntry({
        accountId: Keypair.fromPublicKey(a.id).xdrAccountId(),
        balance: xdr.Int64.fromString(a.balance.toString()),
        seqNum: xdr.Int64.fromString(a.seqNum.toString()),
        numSubEntries: a.numSubEntries,
        inflationDest: null,
        flags: 0,
        homeDomain: '',
        // master weight 1, all thresholds 0: the master key alone can sign anything.
        thresholds: Buffer.from([1, 0, 0, 0]),
        signers: [],
        ext: new xdr.AccountEntryExt(0),
      }),
    ),
    ext: new xdr.LedgerEntryExt(0),
  });
}

export function readAccount(storage: TxStorage, id: string): AccountState | undefined {
  const e = storage.get(accountLedgerKey(id));
  if (!e) return undefined;
  const a = e.data().account();
  return {
    id,
    balance: a.balance().toBigInt(),
    seqNum: a.seqNum().toBigInt(),
    numSubEntries: a.numSubEntries(),
  };
}

export function writeAccount(storage: TxStorage, a: AccountState): void {
  storage.put(accountLedgerKey(a.id), newAccountEntry(a, storage.ledgerSeq));
}

/** Minimum balance an account must keep: (2 + subentries) base reserves. */
export function minBalance(a: AccountState, baseReserve: number): bigint {
  return BigInt(2 + a.numSubEntries) * BigInt(baseReserve);
}

/** Resolves G… or M… addresses to the underlying G… account. */
export function baseAccountId(address: string): string {
  if (address.startsWith('M')) {
    const raw = StrKey.decodeMed25519PublicKey(address);
    return StrKey.encodeEd25519PublicKey(raw.subarray(0, 32));
  }
  return address;
}

/** "10000.0000000" (XLM, as stellar-sdk parses amounts) → stroops. */
export function toStroops(amount: string): bigint {
  const [whole = '0', frac = ''] = amount.split('.');
  return BigInt(whole) * 10_000_000n + BigInt(`${frac}0000000`.slice(0, 7));
}

/** stroops → "10000.0000000", the amount format stellar-sdk operations take. */
export function fromStroops(stroops: bigint): string {
  const frac = (stroops % 10_000_000n).toString().padStart(7, '0');
  return `${stroops / 10_000_000n}.${frac}`;
}
