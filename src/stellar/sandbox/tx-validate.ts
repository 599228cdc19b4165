import {
  type FeeBumpTransaction,
  Keypair,
  type Transaction,
  TransactionBuilder,
  xdr,
} from '@stellar/stellar-sdk';
import { accountLedgerKey, baseAccountId, minBalance, readAccount } from './accounts.ts';
import { nonRefundableFee } from './fees.ts';
import type { LedgerState } from './ledger-state.ts';
import type { NetworkConfig } from './network-config.ts';
import { declaredResources } from './soroban-exec.ts';
import { TxStorage } from './tx-storage.ts';

export type TxErrorCode =
  | 'txBadSeq'
  | 'txBadAuth'
  | 'txInsufficientBalance'
  | 'txNoAccount'
  | 'txInsufficientFee'
  | 'txMissingOperation'
  | 'txNotSupported'
  | 'txMalformed'
  | 'txSorobanInvalid'
  | 'txTooEarly'
  | 'txTooLate'
  | 'txInternalError';

/** A transaction rejected before it could be applied; carries the result code core would give. */
export class TxRejectedError extends Error {
  constructor(
    readonly code: TxErrorCode,
    readonly detail: string,
    readonly feeCharged = 0n,
  ) {
    super(`${code}: ${detail}`);
    this.name = 'TxRejectedError';
  }

  toResult(): xdr.TransactionResult {
    const result = (
      xdr.TransactionResultResult as unknown as Record<string, () => xdr.TransactionResultResult>
    )[this.code]?.();
    return new xdr.TransactionResult({
      feeCharged: xdr.Int64.fromString(this.feeCharged.toString()),
      result: result as xdr.TransactionResultResult,
      ext: new xdr.TransactionResultExt(0),
    });
  }
}

export const SOROBAN_OPS: ReadonlySet<string> = new Set([
  'invokeHostFunction',
  'extendFootprintTtl',
  'restoreFootprint',
]);

export interface ParsedTx {
  tx: Transaction;
  hash: string;
  source: string;
  seq: bigint;
  fee: bigint;
  rawOps: xdr.Operation[];
  sorobanData?: xdr.SorobanTransactionData;
  isSoroban: boolean;
}

export function parseEnvelope(envelopeXdr: string, passphrase: string): ParsedTx {
  let parsed: Transaction | FeeBumpTransaction;
  try {
    parsed = TransactionBuilder.fromXDR(envelopeXdr, passphrase);
  } catch (e) {
    throw new TxRejectedError('txMalformed', `cannot decode envelope: ${(e as Error).message}`);
  }
  if ('innerTransaction' in parsed)
    throw new TxRejectedError('txNotSupported', 'fee-bump transactions are not supported');
  const tx = parsed;
  const env = tx.toEnvelope();
  if (env.switch().name !== 'envelopeTypeTx')
    throw new TxRejectedError('txNotSupported', 'only v1 envelopes are supported');
  const body = env.v1().tx();
  const ext = body.ext();
  const sorobanData = ext.switch() === 1 ? ext.sorobanData() : undefined;
  const rawOps = body.operations();
  const isSoroban = rawOps.some((op) => SOROBAN_OPS.has(op.body().switch().name));
  return {
    tx,
    hash: tx.hash().toString('hex'),
    source: baseAccountId(tx.source),
    seq: BigInt(tx.sequence),
    fee: BigInt(tx.fee),
    rawOps,
    sorobanData,
    isSoroban,
  };
}

export function signatureValid(p: ParsedTx, accountId: string): boolean {
  const kp = Keypair.fromPublicKey(accountId);
  const hint = kp.signatureHint();
  const payload = p.tx.hash();
  return p.tx.signatures.some((s) => s.hint().equals(hint) && kp.verify(payload, s.signature()));
}

/**
 * The checks a validator makes before accepting a transaction into its queue (and again before
 * applying it). `expectedSeq` lets the queue account for this source's pending transactions.
 */
export function validateTx(
  p: ParsedTx,
  state: LedgerState,
  config: NetworkConfig,
  ledgerSeq: number,
  closeTime: bigint,
  expectedSeq?: bigint,
): void {
  const ops = p.rawOps;
  if (ops.length === 0) throw new TxRejectedError('txMissingOperation', 'transaction has no operations');
  if (p.isSoroban && (ops.length !== 1 || !p.sorobanData)) {
    throw new TxRejectedError(
      'txMalformed',
      'a Soroban transaction needs exactly one Soroban op and sorobanData',
    );
  }
  if (!p.isSoroban && p.sorobanData)
    throw new TxRejectedError('txMalformed', 'sorobanData on a classic transaction');
  const tb = p.tx.timeBounds;
  if (tb) {
    if (BigInt(tb.minTime) > closeTime) throw new TxRejectedError('txTooEarly', 'minTime is in the future');
    if (tb.maxTime !== '0' && BigInt(tb.maxTime) < closeTime)
      throw new TxRejectedError('txTooLate', 'maxTime has passed');
  }
  const view = new TxStorage(state, ledgerSeq, config, 'record');
  const acct = readAccount(view, p.source);
  if (!acct) throw new TxRejectedError('txNoAccount', `source account ${p.source} does not exist`);
  const want = expectedSeq ?? acct.seqNum + 1n;
  if (p.seq !== want) throw new TxRejectedError('txBadSeq', `sequence ${p.seq} given, ${want} expected`);

  const signers = new Set([p.source]);
  for (const op of p.tx.operations) if (op.source) signers.add(baseAccountId(op.source));
  for (const s of signers) {
    if (s !== p.source && !view.get(accountLedgerKey(s)))
      throw new TxRejectedError('txNoAccount', `op source ${s} missing`);
    if (!signatureValid(p, s))
      throw new TxRejectedError('txBadAuth', `missing or invalid signature for ${s}`);
  }

  const resourceFee = p.sorobanData ? p.sorobanData.resourceFee().toBigInt() : 0n;
  const minFee = BigInt(config.baseFee * ops.length) + resourceFee;
  if (p.fee < minFee) {
    throw new TxRejectedError('txInsufficientFee', `fee ${p.fee} below minimum ${minFee}`, minFee);
  }
  if (p.sorobanData) {
    const needed = BigInt(
      nonRefundableFee(declaredResources(p.sorobanData, ops[0]?.body().switch().name ?? ''), config.fees),
    );
    if (resourceFee < needed) {
      throw new TxRejectedError(
        'txInsufficientFee',
        `resourceFee ${resourceFee} below non-refundable ${needed}`,
        minFee,
      );
    }
  }
  if (acct.balance - minBalance(acct, config.baseReserve) < p.fee) {
    throw new TxRejectedError('txInsufficientBalance', `balance cannot cover fee ${p.fee}`);
  }
}

/** Source-account credentials belong to the operation's source (which defaults to the tx's). */
export function opSourceAddress(p: ParsedTx, index: number): xdr.ScAddress {
  const opSource = p.tx.operations[index]?.source;
  const id = opSource ? baseAccountId(opSource) : p.source;
  return xdr.ScAddress.scAddressTypeAccount(Keypair.fromPublicKey(id).xdrAccountId());
}
