import { Operation, xdr } from '@stellar/stellar-sdk';
import { nonRefundableFee } from './fees.ts';
import type { LedgerInfo } from './host.ts';
import type { LedgerState } from './ledger-state.ts';
import type { NetworkConfig } from './network-config.ts';
import { executeSorobanOp, type SorobanExecResult } from './soroban-exec.ts';
import type { Footprint } from './tx-storage.ts';
import { opSourceAddress, type ParsedTx, SOROBAN_OPS } from './tx-validate.ts';

export interface SimulateResponse {
  latestLedger: number;
  minResourceFee?: string;
  transactionData?: string;
  results?: Array<{ auth: string[]; xdr: string }>;
  events: string[];
  cost?: { cpuInsns: string; memBytes: string };
  restorePreamble?: { minResourceFee: string; transactionData: string };
  error?: string;
}

function toKeys(set: Set<string>): xdr.LedgerKey[] {
  return [...set].sort().map((k) => xdr.LedgerKey.fromXDR(k, 'base64'));
}

export function buildSorobanData(
  fp: Footprint,
  usage: { instructions: number; diskReadBytes: number; writeBytes: number },
  resourceFee: number,
): xdr.SorobanTransactionData {
  return new xdr.SorobanTransactionData({
    ext: new xdr.SorobanTransactionDataExt(0),
    resources: new xdr.SorobanResources({
      footprint: new xdr.LedgerFootprint({ readOnly: toKeys(fp.readOnly), readWrite: toKeys(fp.readWrite) }),
      instructions: usage.instructions,
      diskReadBytes: usage.diskReadBytes,
      writeBytes: usage.writeBytes,
    }),
    resourceFee: xdr.Int64.fromString(String(resourceFee)),
  });
}

function diagnosticsOf(res: SorobanExecResult): string[] {
  const contractEvents = res.events.map(
    (event) => new xdr.DiagnosticEvent({ inSuccessfulContractCall: !res.failure, event }),
  );
  return [...contractEvents, ...res.diagnostics].map((e) => e.toXDR('base64'));
}

/** simulateTransaction: runs the single Soroban op in recording mode against the latest state. */
export function simulate(
  p: ParsedTx,
  state: LedgerState,
  config: NetworkConfig,
  ledger: LedgerInfo,
  latestLedger: number,
  requestedAuthMode?: string,
): SimulateResponse {
  const op = p.rawOps[0];
  if (p.rawOps.length !== 1 || !op || !SOROBAN_OPS.has(op.body().switch().name)) {
    return { latestLedger, events: [], error: 'simulation requires exactly one Soroban operation' };
  }
  const kind = op.body().switch().name;
  if (kind !== 'invokeHostFunction' && !p.sorobanData) {
    return { latestLedger, events: [], error: `${kind} needs a footprint in sorobanData to be simulated` };
  }
  const source = opSourceAddress(p, 0);
  // As stellar-rpc: explicit authMode wins; otherwise enforce the entries the op already carries.
  const hasAuth = kind === 'invokeHostFunction' && op.body().invokeHostFunctionOp().auth().length > 0;
  if (requestedAuthMode === 'record' && hasAuth) {
    return { latestLedger, events: [], error: "authMode 'record' cannot be used with auth entries present" };
  }
  const authMode =
    requestedAuthMode === 'enforce' || (hasAuth && requestedAuthMode !== 'record') ? 'enforce' : 'record';
  const res = executeSorobanOp({
    state,
    config,
    ledger,
    source,
    op,
    mode: 'record',
    authMode,
    sorobanData: kind === 'invokeHostFunction' ? undefined : p.sorobanData,
    prngSeed: Buffer.alloc(32),
  });
  const events = diagnosticsOf(res);
  if (res.failure) {
    return { latestLedger, events, error: res.error?.message ?? res.failure };
  }
  const { usage, fee } = withLeeway(res, kind, config);
  const out: SimulateResponse = {
    latestLedger,
    minResourceFee: String(fee),
    transactionData: buildSorobanData(res.footprint, usage, fee).toXDR('base64'),
    events,
    cost: { cpuInsns: String(res.usage.instructions), memBytes: String(res.usage.memBytes ?? 0) },
  };
  if (kind === 'invokeHostFunction') {
    out.results = [
      {
        auth: res.auth.map((a) => a.toXDR('base64')),
        xdr: (res.returnValue ?? xdr.ScVal.scvVoid()).toXDR('base64'),
      },
    ];
  }
  const archived = res.storage.archivedTouched;
  if (archived.size > 0) out.restorePreamble = restorePreamble(archived, state, config, ledger, source);
  return out;
}

/**
 * stellar-rpc's default simulation adjustment: instructions × 1.04 (at least +50,000) and the
 * refundable fee × 1.15, so rent that grows while the tx waits for a ledger is still covered.
 * Fees actually charged are computed from real usage, so this only affects the declared maximum.
 */
function withLeeway(res: SorobanExecResult, kind: string, config: NetworkConfig) {
  const instructions =
    kind === 'invokeHostFunction'
      ? Math.max(Math.ceil(res.usage.instructions * 1.04), res.usage.instructions + 50_000)
      : res.usage.instructions;
  const usage = { ...res.usage, instructions };
  const fee = nonRefundableFee(usage, config.fees) + Math.ceil(res.refundableFee * 1.15);
  return { usage, fee };
}

/** What a RestoreFootprint for the archived entries costs, in the shape the SDK expects. */
function restorePreamble(
  archived: Set<string>,
  state: LedgerState,
  config: NetworkConfig,
  ledger: LedgerInfo,
  source: xdr.ScAddress,
): { minResourceFee: string; transactionData: string } {
  const fp: Footprint = { readOnly: new Set(), readWrite: new Set(archived) };
  const probe = buildSorobanData(fp, { instructions: 0, diskReadBytes: 0, writeBytes: 0 }, 0);
  const op = xdr.Operation.fromXDR(Operation.restoreFootprint({}).toXDR());
  const res = executeSorobanOp({
    state,
    config,
    ledger,
    source,
    op,
    mode: 'record',
    sorobanData: probe,
    prngSeed: Buffer.alloc(32),
  });
  const { usage, fee } = withLeeway(res, 'restoreFootprint', config);
  return {
    minResourceFee: String(fee),
    transactionData: buildSorobanData(fp, usage, fee).toXDR('base64'),
  };
}
