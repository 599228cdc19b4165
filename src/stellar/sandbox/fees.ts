import { xdr } from '@stellar/stellar-sdk';
import type { FeeRates } from './network-config.ts';
import type { TtlChange } from './tx-storage.ts';

/**
 * Deterministic resource/fee model. Same transaction against the same state always yields the
 * same numbers, so simulation's answer is exactly what apply will require.
 *
 * - instructions: counted by the host (flat cost per host call, VM instantiation by wasm size,
 *   bytes copied, crypto), not by wasm opcodes.
 * - diskReadBytes: XDR size of every footprint entry read from disk when the tx starts: classic
 *   entries and the archived entries a restore brings back (protocol 23 keeps live Soroban entries
 *   in memory, free of read fees).
 * - readEntries: how many of those disk entries the footprint holds.
 * - writeBytes: XDR size of every read-write entry as written (nonce entries excluded).
 * - non-refundable fee: instructions, entry counts and read/write bytes at the configured rates.
 * - refundable fee: contract events bytes + rent (entry size × ledgers of TTL added).
 */
export interface ResourceUsage {
  instructions: number;
  diskReadBytes: number;
  writeBytes: number;
  readEntries: number;
  writeEntries: number;
  eventsBytes: number;
  rentFee: number;
  /** Host memory allocated (reported by simulation's cost, not charged). */
  memBytes?: number;
}

export interface DeclaredResources {
  instructions: number;
  diskReadBytes: number;
  writeBytes: number;
  readEntries: number;
  writeEntries: number;
}

const perKb = (bytes: number, rate: number): number => Math.ceil((bytes * rate) / 1024);

export function nonRefundableFee(r: DeclaredResources, rates: FeeRates): number {
  return (
    Math.ceil((r.instructions * rates.per10kInstructions) / 10_000) +
    r.readEntries * rates.perReadEntry +
    r.writeEntries * rates.perWriteEntry +
    perKb(r.diskReadBytes, rates.perKbRead) +
    perKb(r.writeBytes, rates.perKbWrite)
  );
}

export function refundableFee(eventsBytes: number, rentFee: number, rates: FeeRates): number {
  return perKb(eventsBytes, rates.perKbEvents) + rentFee;
}

export function rentFee(
  ttlChanges: Map<string, TtlChange>,
  sizeOf: (keyB64: string) => number,
  ledgerSeq: number,
  rates: FeeRates,
): number {
  let total = 0;
  for (const [k, { before, after }] of ttlChanges) {
    const ledgers = after - Math.max(before, ledgerSeq - 1);
    if (ledgers <= 0) continue;
    total += Math.ceil((sizeOf(k) * ledgers * rates.rentPerKbLedgerMilli) / 1024 / 1000);
  }
  return total;
}

export function eventsSize(events: xdr.ContractEvent[]): number {
  return events.reduce((n, e) => n + e.toXDR().length, 0);
}

export function isNonceKey(keyB64: string): boolean {
  const key = xdr.LedgerKey.fromXDR(keyB64, 'base64');
  return (
    key.switch().name === 'contractData' && key.contractData().key().switch().name === 'scvLedgerKeyNonce'
  );
}
