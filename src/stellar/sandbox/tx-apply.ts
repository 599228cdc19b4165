import { hash, xdr } from '@stellar/stellar-sdk';
import { baseAccountId, minBalance, readAccount, toStroops, writeAccount } from './accounts.ts';
import type { LedgerInfo } from './host.ts';
import { entryChanges } from './ledger-changes.ts';
import type { LedgerState } from './ledger-state.ts';
import type { NetworkConfig } from './network-config.ts';
import { executeSorobanOp, type SorobanFailure } from './soroban-exec.ts';
import { TxStorage } from './tx-storage.ts';
import { opSourceAddress, type ParsedTx, TxRejectedError, validateTx } from './tx-validate.ts';

export interface ApplyOutcome {
  success: boolean;
  result: xdr.TransactionResult;
  meta: xdr.TransactionMeta;
  events: xdr.ContractEvent[];
  diagnostics: xdr.DiagnosticEvent[];
}

type OpOutcome = { ok: true; result: xdr.OperationResult } | { ok: false; result: xdr.OperationResult };

const U = xdr.OperationResult;
const Tr = xdr.OperationResultTr;

function createAccountOp(
  storage: TxStorage,
  src: string,
  op: { destination: string; startingBalance: string },
  config: NetworkConfig,
): OpOutcome {
  const r = (code: string) =>
    U.opInner(
      Tr.createAccount(
        (xdr.CreateAccountResult as never as Record<string, () => xdr.CreateAccountResult>)[
          code
        ]?.() as xdr.CreateAccountResult,
      ),
    );
  const amount = toStroops(op.startingBalance);
  if (amount <= 0n || op.destination === src) return { ok: false, result: r('createAccountMalformed') };
  if (readAccount(storage, op.destination)) return { ok: false, result: r('createAccountAlreadyExist') };
  if (amount < 2n * BigInt(config.baseReserve)) return { ok: false, result: r('createAccountLowReserve') };
  const source = readAccount(storage, src);
  if (!source || source.balance - minBalance(source, config.baseReserve) < amount) {
    return { ok: false, result: r('createAccountUnderfunded') };
  }
  writeAccount(storage, { ...source, balance: source.balance - amount });
  // New accounts start at sequence ledger << 32, so old transactions can never be replayed.
  writeAccount(storage, {
    id: op.destination,
    balance: amount,
    seqNum: BigInt(storage.ledgerSeq) << 32n,
    numSubEntries: 0,
  });
  return { ok: true, result: r('createAccountSuccess') };
}

function paymentOp(
  storage: TxStorage,
  src: string,
  op: { destination: string; amount: string; asset: { isNative(): boolean } },
  config: NetworkConfig,
): OpOutcome {
  const r = (code: string) =>
    U.opInner(
      Tr.payment(
        (xdr.PaymentResult as never as Record<string, () => xdr.PaymentResult>)[
          code
        ]?.() as xdr.PaymentResult,
      ),
    );
  if (!op.asset.isNative()) return { ok: false, result: U.opNotSupported() };
  const amount = toStroops(op.amount);
  if (amount <= 0n) return { ok: false, result: r('paymentMalformed') };
  const dest = baseAccountId(op.destination);
  const destAcct = readAccount(storage, dest);
  if (!destAcct) return { ok: false, result: r('paymentNoDestination') };
  const source = readAccount(storage, src);
  if (!source || source.balance - minBalance(source, config.baseReserve) < amount) {
    return { ok: false, result: r('paymentUnderfunded') };
  }
  if (dest === src) return { ok: true, result: r('paymentSuccess') };
  writeAccount(storage, { ...source, balance: source.balance - amount });
  writeAccount(storage, { ...destAcct, balance: destAcct.balance + amount });
  return { ok: true, result: r('paymentSuccess') };
}

function sorobanOpResult(
  kind: string,
  failure: SorobanFailure | undefined,
  successHash?: Buffer,
): xdr.OperationResult {
  const codes: Record<SorobanFailure, string> = {
    trapped: 'Trapped',
    resourceLimitExceeded: 'ResourceLimitExceeded',
    entryArchived: 'EntryArchived',
    insufficientRefundableFee: 'InsufficientRefundableFee',
    malformed: 'Malformed',
  };
  if (kind === 'invokeHostFunction') {
    const res = failure
      ? (xdr.InvokeHostFunctionResult as never as Record<string, () => xdr.InvokeHostFunctionResult>)[
          `invokeHostFunction${codes[failure]}`
        ]?.()
      : xdr.InvokeHostFunctionResult.invokeHostFunctionSuccess(successHash as Buffer);
    return U.opInner(Tr.invokeHostFunction(res as xdr.InvokeHostFunctionResult));
  }
  const prefix = kind === 'extendFootprintTtl' ? 'extendFootprintTtl' : 'restoreFootprint';
  const code =
    failure === 'trapped' || failure === 'entryArchived' ? 'Malformed' : failure ? codes[failure] : 'Success';
  const union = kind === 'extendFootprintTtl' ? xdr.ExtendFootprintTtlResult : xdr.RestoreFootprintResult;
  const res = (union as never as Record<string, () => unknown>)[`${prefix}${code}`]?.();
  return kind === 'extendFootprintTtl'
    ? U.opInner(Tr.extendFootprintTtl(res as xdr.ExtendFootprintTtlResult))
    : U.opInner(Tr.restoreFootprint(res as xdr.RestoreFootprintResult));
}

/** Applies one transaction in ledger `ledger.sequence`, charging fees and bumping the sequence. */
export function applyTransaction(
  p: ParsedTx,
  state: LedgerState,
  config: NetworkConfig,
  ledger: LedgerInfo,
): ApplyOutcome {
  validateTx(p, state, config, ledger.sequence, ledger.timestamp);
  const inclusion = BigInt(config.baseFee * p.rawOps.length);
  const declaredResourceFee = p.sorobanData ? p.sorobanData.resourceFee().toBigInt() : 0n;

  // Fee and sequence number are taken first and stay taken even if the operations fail.
  const feeView = new TxStorage(state, ledger.sequence, config, 'record');
  const src = readAccount(feeView, p.source);
  if (!src) throw new TxRejectedError('txNoAccount', p.source);
  writeAccount(feeView, { ...src, balance: src.balance - inclusion - declaredResourceFee, seqNum: p.seq });
  const before = entryChanges(feeView.commit());

  const opResults: xdr.OperationResult[] = [];
  let success = true;
  let events: xdr.ContractEvent[] = [];
  let diagnostics: xdr.DiagnosticEvent[] = [];
  let returnValue: xdr.ScVal | undefined;
  let refund = 0n;
  let sorobanFees = { nonRefundable: 0, refundable: 0, rent: 0 };
  let perOpChanges: xdr.LedgerEntryChange[][] = p.rawOps.map(() => []);

  if (p.isSoroban) {
    const op = p.rawOps[0] as xdr.Operation;
    const kind = op.body().switch().name;
    const res = executeSorobanOp({
      state,
      config,
      ledger,
      source: opSourceAddress(p, 0),
      op,
      mode: 'enforce',
      sorobanData: p.sorobanData,
      prngSeed: Buffer.from(p.hash, 'hex'),
    });
    success = !res.failure;
    diagnostics = res.diagnostics;
    if (success) {
      events = res.events;
      returnValue = res.returnValue;
      perOpChanges = [entryChanges(res.storage.commit())];
    }
    const preimage = new xdr.InvokeHostFunctionSuccessPreImage({
      returnValue: returnValue ?? xdr.ScVal.scvVoid(),
      events,
    });
    const successHash = hash(preimage.toXDR());
    opResults.push(sorobanOpResult(kind, res.failure, successHash));
    const consumed = BigInt(res.nonRefundableFee) + (success ? BigInt(res.refundableFee) : 0n);
    refund = declaredResourceFee > consumed ? declaredResourceFee - consumed : 0n;
    sorobanFees = {
      nonRefundable: res.nonRefundableFee,
      refundable: success ? res.refundableFee : 0,
      rent: success ? res.usage.rentFee : 0,
    };
  } else {
    // Each op commits so the next one sees its effects; a failed tx rolls all of them back.
    const committed: Array<ReturnType<TxStorage['commit']>> = [];
    for (const [i, op] of p.tx.operations.entries()) {
      const opSrc = op.source ? baseAccountId(op.source) : p.source;
      const view = new TxStorage(state, ledger.sequence, config, 'record');
      let out: OpOutcome;
      if (op.type === 'createAccount') out = createAccountOp(view, opSrc, op, config);
      else if (op.type === 'payment') out = paymentOp(view, opSrc, op, config);
      else out = { ok: false, result: U.opNotSupported() };
      opResults[i] = out.result;
      if (!out.ok) success = false;
      committed.push(view.commit());
    }
    if (success) perOpChanges = committed.map((diffs) => entryChanges(diffs));
    else for (const diffs of committed.reverse()) revert(state, diffs);
  }

  let after: xdr.LedgerEntryChange[] = [];
  if (refund > 0n) {
    const refundView = new TxStorage(state, ledger.sequence, config, 'record');
    const acct = readAccount(refundView, p.source);
    if (acct) writeAccount(refundView, { ...acct, balance: acct.balance + refund });
    after = entryChanges(refundView.commit());
  }
  const feeCharged = inclusion + declaredResourceFee - refund;
  const result = new xdr.TransactionResult({
    feeCharged: xdr.Int64.fromString(feeCharged.toString()),
    result: success
      ? xdr.TransactionResultResult.txSuccess(opResults)
      : xdr.TransactionResultResult.txFailed(opResults),
    ext: new xdr.TransactionResultExt(0),
  });
  const meta = buildMetaV4(
    before,
    perOpChanges,
    after,
    events,
    diagnostics,
    returnValue,
    p.isSoroban,
    sorobanFees,
  );
  return { success, result, meta, events, diagnostics };
}

function revert(state: LedgerState, diffs: ReturnType<TxStorage['commit']>): void {
  for (const { keyB64, before } of [...diffs].reverse()) {
    if (before) state.set(keyB64, before);
    else state.delete(keyB64);
  }
}

function buildMetaV4(
  before: xdr.LedgerEntryChange[],
  opChanges: xdr.LedgerEntryChange[][],
  after: xdr.LedgerEntryChange[],
  events: xdr.ContractEvent[],
  diagnostics: xdr.DiagnosticEvent[],
  returnValue: xdr.ScVal | undefined,
  isSoroban: boolean,
  fees: { nonRefundable: number; refundable: number; rent: number },
): xdr.TransactionMeta {
  const i64 = (n: number) => xdr.Int64.fromString(String(n));
  const sorobanMeta = isSoroban
    ? new xdr.SorobanTransactionMetaV2({
        ext: new xdr.SorobanTransactionMetaExt(
          1,
          new xdr.SorobanTransactionMetaExtV1({
            ext: new xdr.ExtensionPoint(0),
            totalNonRefundableResourceFeeCharged: i64(fees.nonRefundable),
            totalRefundableResourceFeeCharged: i64(fees.refundable),
            rentFeeCharged: i64(fees.rent),
          }),
        ),
        returnValue: returnValue ?? null,
      })
    : null;
  return new xdr.TransactionMeta(
    4,
    new xdr.TransactionMetaV4({
      ext: new xdr.ExtensionPoint(0),
      txChangesBefore: before,
      operations: opChanges.map(
        (changes, i) =>
          new xdr.OperationMetaV2({
            ext: new xdr.ExtensionPoint(0),
            changes,
            events: i === 0 ? events : [],
          }),
      ),
      txChangesAfter: after,
      sorobanMeta,
      events: [],
      diagnosticEvents: diagnostics,
    }),
  );
}
