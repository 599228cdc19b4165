import { xdr } from '@stellar/stellar-sdk';
import { createContract, uploadWasm } from './contract-deploy.ts';
import { ArchivedEntryError, ErrCode, ErrType, HostError } from './errors.ts';
import {
  type DeclaredResources,
  eventsSize,
  isNonceKey,
  nonRefundableFee,
  type ResourceUsage,
  refundableFee,
  rentFee,
} from './fees.ts';
import { asHostError, Host, type LedgerInfo } from './host.ts';
import { isSorobanKey, type LedgerState } from './ledger-state.ts';
import type { NetworkConfig } from './network-config.ts';
import { type Footprint, TxStorage } from './tx-storage.ts';

export type SorobanFailure =
  | 'trapped'
  | 'resourceLimitExceeded'
  | 'entryArchived'
  | 'insufficientRefundableFee'
  | 'malformed';

export interface SorobanExecInput {
  state: LedgerState;
  config: NetworkConfig;
  ledger: LedgerInfo;
  source: xdr.ScAddress;
  op: xdr.Operation;
  mode: 'enforce' | 'record';
  /** Auth handling; defaults to `mode`. Simulation enforces when the op already carries entries. */
  authMode?: 'enforce' | 'record';
  /** Enforce mode: the transaction's declared footprint/resources. */
  sorobanData?: xdr.SorobanTransactionData;
  prngSeed: Buffer;
}

export interface SorobanExecResult {
  failure?: SorobanFailure;
  error?: HostError;
  returnValue?: xdr.ScVal;
  events: xdr.ContractEvent[];
  diagnostics: xdr.DiagnosticEvent[];
  auth: xdr.SorobanAuthorizationEntry[];
  storage: TxStorage;
  footprint: Footprint;
  usage: ResourceUsage;
  nonRefundableFee: number;
  refundableFee: number;
}

export function footprintFromXdr(fp: xdr.LedgerFootprint): Footprint {
  return {
    readOnly: new Set(fp.readOnly().map((k) => k.toXDR('base64'))),
    readWrite: new Set(fp.readWrite().map((k) => k.toXDR('base64'))),
  };
}

function entrySize(state: LedgerState, storage: TxStorage | undefined, k: string): number {
  const e = storage?.peek(k) ?? state.get(k);
  return e ? Buffer.from(e.entryXdr, 'base64').length : 0;
}

/** Runs one Soroban operation (invoke / extend TTL / restore) against a transactional view. */
export function executeSorobanOp(input: SorobanExecInput): SorobanExecResult {
  const { state, config, ledger, op, mode } = input;
  const declaredFp = input.sorobanData
    ? footprintFromXdr(input.sorobanData.resources().footprint())
    : undefined;
  const kind = op.body().switch().name;
  // Ext/restore ops run against the declared footprint even when simulated (nothing to record).
  const storageMode = mode === 'record' && kind === 'invokeHostFunction' ? 'record' : 'enforce';
  const storage = new TxStorage(state, ledger.sequence, config, storageMode, declaredFp);
  const host = new Host(
    storage,
    ledger,
    config,
    input.source,
    input.authMode ?? mode,
    kind === 'invokeHostFunction' ? op.body().invokeHostFunctionOp().auth() : [],
    input.prngSeed,
  );
  const result: SorobanExecResult = {
    events: host.events,
    diagnostics: host.diagnostics,
    auth: [],
    storage,
    footprint: declaredFp ?? storage.recorded,
    usage: emptyUsage(),
    nonRefundableFee: 0,
    refundableFee: 0,
  };

  try {
    if (storageMode === 'enforce' && declaredFp) precheckArchived(state, ledger.sequence, declaredFp, kind);
    switch (kind) {
      case 'invokeHostFunction':
        result.returnValue = runHostFunction(host, op.body().invokeHostFunctionOp().hostFunction());
        break;
      case 'extendFootprintTtl':
        extendFootprint(
          storage,
          declaredFp,
          op.body().extendFootprintTtlOp().extendTo(),
          ledger.sequence,
          config,
        );
        break;
      case 'restoreFootprint':
        restoreFootprint(state, storage, declaredFp, ledger.sequence, config);
        break;
      default:
        throw new HostError(ErrType.Context, ErrCode.InvalidInput, `${kind} is not a Soroban operation`);
    }
  } catch (e) {
    const he = asHostError(e);
    result.error = he;
    result.failure = he instanceof ArchivedEntryError ? 'entryArchived' : 'trapped';
    // Like core with diagnostics enabled: an "error" diagnostic event says why it failed.
    host.emitDiagnostic(
      [xdr.ScVal.scvSymbol('error'), xdr.ScVal.scvError(he.toScError())],
      xdr.ScVal.scvString(he.message),
    );
    if (kind !== 'invokeHostFunction') result.failure = 'malformed';
  }
  if (kind === 'invokeHostFunction') {
    result.auth =
      host.auth.mode === 'record' ? host.auth.recordedEntries() : op.body().invokeHostFunctionOp().auth();
  }
  result.footprint = storageMode === 'record' ? storage.recorded : (declaredFp ?? storage.recorded);

  const fp = result.footprint;
  const diskKeys = [...fp.readOnly, ...fp.readWrite].filter((k) => readsFromDisk(k, kind));
  const rwChanged = [...storage.changedEntries().entries()].filter(
    ([k, v]) => v !== null && fp.readWrite.has(k) && !isNonceKey(k),
  );
  const ttlForRent = new Map([...storage.ttlChanges].filter(([k]) => !isNonceKey(k)));
  result.usage = {
    instructions: kind === 'invokeHostFunction' ? host.budget.instructions : 0,
    diskReadBytes: diskKeys.reduce((n, k) => n + entrySize(state, undefined, k), 0),
    writeBytes: rwChanged.reduce((n, [k]) => n + entrySize(state, storage, k), 0),
    readEntries: diskKeys.length,
    writeEntries: fp.readWrite.size,
    eventsBytes: eventsSize(host.events),
    rentFee: rentFee(ttlForRent, (k) => entrySize(state, storage, k), ledger.sequence, config.fees),
    memBytes: host.budget.memBytes,
  };
  result.nonRefundableFee = nonRefundableFee(result.usage, config.fees);
  result.refundableFee = refundableFee(result.usage.eventsBytes, result.usage.rentFee, config.fees);

  if (mode === 'enforce' && !result.failure && input.sorobanData)
    checkDeclared(result, input.sorobanData, kind, config);
  if (result.failure) {
    // Failed invocations leave no trace in state; their events are not published.
    result.usage.rentFee = 0;
    result.refundableFee = 0;
  }
  return result;
}

function emptyUsage(): ResourceUsage {
  return {
    instructions: 0,
    diskReadBytes: 0,
    writeBytes: 0,
    readEntries: 0,
    writeEntries: 0,
    eventsBytes: 0,
    rentFee: 0,
  };
}

/**
 * Protocol 23 (CAP-0066): live Soroban entries are held in memory and cost no disk read, neither in
 * `diskReadBytes` nor in read fees. Classic entries (accounts, trustlines) are read from disk, and so
 * are the archived entries a restore brings back. Counting live contract data as disk reads made
 * concurrent invocations fail that the network takes: two simulated against the same ledger declare
 * no read for an entry the first one then creates.
 */
function readsFromDisk(keyB64: string, kind: string): boolean {
  // A restore's footprint is the archived entries it brings back.
  return kind === 'restoreFootprint' || !isSorobanKey(xdr.LedgerKey.fromXDR(keyB64, 'base64'));
}

/** The disk reads a transaction pays for, from its footprint alone, as core counts them. */
function declaredDiskReadEntries(fp: xdr.LedgerFootprint, kind: string): number {
  const keys = [...fp.readOnly(), ...fp.readWrite()];
  if (kind === 'restoreFootprint') return keys.length;
  return keys.filter((key) => !isSorobanKey(key)).length;
}

export function declaredResources(data: xdr.SorobanTransactionData, kind: string): DeclaredResources {
  const r = data.resources();
  return {
    instructions: r.instructions(),
    diskReadBytes: r.diskReadBytes(),
    writeBytes: r.writeBytes(),
    readEntries: declaredDiskReadEntries(r.footprint(), kind),
    writeEntries: r.footprint().readWrite().length,
  };
}

function checkDeclared(
  result: SorobanExecResult,
  data: xdr.SorobanTransactionData,
  kind: string,
  config: NetworkConfig,
): void {
  const d = declaredResources(data, kind);
  const u = result.usage;
  const over: Array<[string, number, number]> = [
    ['instructions', u.instructions, d.instructions],
    ['diskReadBytes', u.diskReadBytes, d.diskReadBytes],
    ['writeBytes', u.writeBytes, d.writeBytes],
  ];
  for (const [name, used, limit] of over) {
    if (used > limit) {
      result.failure = 'resourceLimitExceeded';
      result.error = new HostError(
        ErrType.Budget,
        ErrCode.ExceededLimit,
        `${name} used ${used} > declared ${limit}`,
      );
      return;
    }
  }
  const available = Number(data.resourceFee().toBigInt()) - nonRefundableFee(d, config.fees);
  if (result.refundableFee > available) {
    result.failure = 'insufficientRefundableFee';
    result.error = new HostError(
      ErrType.Budget,
      ErrCode.ExceededLimit,
      `refundable fee ${result.refundableFee} exceeds the ${available} left in the declared resource fee`,
    );
  }
}

function precheckArchived(state: LedgerState, seq: number, fp: Footprint, kind: string): void {
  const keys = kind === 'restoreFootprint' ? [...fp.readOnly] : [...fp.readOnly, ...fp.readWrite];
  for (const k of keys) if (state.status(k, seq) === 'archived') throw new ArchivedEntryError(k);
}

function runHostFunction(host: Host, fn: xdr.HostFunction): xdr.ScVal {
  switch (fn.switch().name) {
    case 'hostFunctionTypeInvokeContract': {
      const ic = fn.invokeContract();
      const args = ic.args().map((a) => host.objects.fromScVal(a));
      const rv = host.callContract(ic.contractAddress(), ic.functionName().toString(), args);
      return host.objects.toScVal(rv);
    }
    case 'hostFunctionTypeUploadContractWasm':
      return xdr.ScVal.scvBytes(uploadWasm(host, fn.wasm()));
    case 'hostFunctionTypeCreateContract': {
      const c = fn.createContract();
      const addr = createContract(host, { preimage: c.contractIdPreimage(), executable: c.executable() });
      return xdr.ScVal.scvAddress(addr);
    }
    case 'hostFunctionTypeCreateContractV2': {
      const c = fn.createContractV2();
      const addr = createContract(host, {
        preimage: c.contractIdPreimage(),
        executable: c.executable(),
        constructorArgs: c.constructorArgs(),
      });
      return xdr.ScVal.scvAddress(addr);
    }
    default:
      throw new HostError(
        ErrType.Context,
        ErrCode.InvalidInput,
        `unsupported host function ${fn.switch().name}`,
      );
  }
}

function extendFootprint(
  storage: TxStorage,
  fp: Footprint | undefined,
  extendTo: number,
  seq: number,
  config: NetworkConfig,
): void {
  if (!fp || fp.readWrite.size > 0) {
    throw new HostError(
      ErrType.Storage,
      ErrCode.InvalidInput,
      'ExtendFootprintTtl needs a read-only footprint only',
    );
  }
  if (extendTo > config.maxEntryTtl - 1) {
    throw new HostError(ErrType.Storage, ErrCode.InvalidInput, `extendTo ${extendTo} exceeds max TTL`);
  }
  for (const k of fp.readOnly) {
    if (!isSorobanKey(xdr.LedgerKey.fromXDR(k, 'base64'))) {
      throw new HostError(ErrType.Storage, ErrCode.InvalidInput, 'only Soroban entries have a TTL');
    }
    const e = storage.getStored(xdr.LedgerKey.fromXDR(k, 'base64'));
    if (e) storage.setLiveUntil(k, e, seq + extendTo);
  }
}

function restoreFootprint(
  state: LedgerState,
  storage: TxStorage,
  fp: Footprint | undefined,
  seq: number,
  config: NetworkConfig,
): void {
  if (!fp || fp.readOnly.size > 0) {
    throw new HostError(
      ErrType.Storage,
      ErrCode.InvalidInput,
      'RestoreFootprint needs a read-write footprint only',
    );
  }
  for (const k of fp.readWrite) {
    if (state.status(k, seq) !== 'archived') continue;
    const e = storage.peek(k);
    if (e) storage.setLiveUntil(k, e, seq + config.minPersistentTtl - 1);
  }
}
