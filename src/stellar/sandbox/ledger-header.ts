import { hash, xdr } from '@stellar/stellar-sdk';
import type { NetworkConfig } from './network-config.ts';

export interface ClosedLedger {
  sequence: number;
  closeTime: number;
  hash: string;
  headerXdr: string;
  metadataXdr: string;
}

const ZERO32 = Buffer.alloc(32);
const TOTAL_COINS = 100_000_000_000n * 10_000_000n;

/** Header + minimal LedgerCloseMeta (v0, no tx details) for getLatestLedger/getLedgers consumers. */
export function buildLedger(
  config: NetworkConfig,
  sequence: number,
  closeTime: number,
  previousHash: string,
  txSetHashInput: Buffer,
): ClosedLedger {
  const header = new xdr.LedgerHeader({
    ledgerVersion: config.protocolVersion,
    previousLedgerHash: Buffer.from(previousHash, 'hex'),
    scpValue: new xdr.StellarValue({
      txSetHash: hash(txSetHashInput),
      closeTime: xdr.Uint64.fromString(String(closeTime)),
      upgrades: [],
      ext: xdr.StellarValueExt.stellarValueBasic(),
    }),
    txSetResultHash: ZERO32,
    bucketListHash: ZERO32,
    ledgerSeq: sequence,
    totalCoins: xdr.Int64.fromString(TOTAL_COINS.toString()),
    feePool: xdr.Int64.fromString('0'),
    inflationSeq: 0,
    idPool: xdr.Uint64.fromString('0'),
    baseFee: config.baseFee,
    baseReserve: config.baseReserve,
    maxTxSetSize: 1000,
    skipList: [ZERO32, ZERO32, ZERO32, ZERO32],
    ext: new xdr.LedgerHeaderExt(0),
  });
  const ledgerHash = hash(header.toXDR());
  const meta = new xdr.LedgerCloseMeta(
    0,
    new xdr.LedgerCloseMetaV0({
      ledgerHeader: new xdr.LedgerHeaderHistoryEntry({
        hash: ledgerHash,
        header,
        ext: new xdr.LedgerHeaderHistoryEntryExt(0),
      }),
      txSet: new xdr.TransactionSet({ previousLedgerHash: Buffer.from(previousHash, 'hex'), txes: [] }),
      txProcessing: [],
      upgradesProcessing: [],
      scpInfo: [],
    }),
  );
  return {
    sequence,
    closeTime,
    hash: ledgerHash.toString('hex'),
    headerXdr: header.toXDR('base64'),
    metadataXdr: meta.toXDR('base64'),
  };
}
