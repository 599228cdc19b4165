import { xdr } from '@stellar/stellar-sdk';

// ScErrorType / ScErrorCode discriminants as the network encodes them inside an Error Val.
export const ErrType = {
  Contract: 0,
  WasmVm: 1,
  Context: 2,
  Storage: 3,
  Object: 4,
  Crypto: 5,
  Events: 6,
  Budget: 7,
  Value: 8,
  Auth: 9,
} as const;

export const ErrCode = {
  ArithDomain: 0,
  IndexBounds: 1,
  InvalidInput: 2,
  MissingValue: 3,
  ExistingValue: 4,
  ExceededLimit: 5,
  InvalidAction: 6,
  InternalError: 7,
  UnexpectedType: 8,
  UnexpectedSize: 9,
} as const;

const TYPE_NAMES = Object.keys(ErrType);
const CODE_NAMES = Object.keys(ErrCode);

/**
 * A failure raised inside the host (or by a contract via fail_with_error). It unwinds the whole
 * invocation like a trap does on the network; try_call turns it back into an Error Val.
 */
export class HostError extends Error {
  constructor(
    readonly errType: number,
    readonly errCode: number,
    message: string,
  ) {
    // Same "Error(Type, #code)" shape as the real host, which SDK clients parse contract errors from.
    super(`HostError: Error(${describeScError(errType, errCode)}): ${message}`);
    this.name = 'HostError';
  }

  toScError(): xdr.ScError {
    return scErrorFromParts(this.errType, this.errCode);
  }
}

/** Raised when a contract imports a host function this sandbox does not implement. */
export class UnimplementedHostFunctionError extends HostError {
  constructor(
    readonly module: string,
    readonly fnName: string,
    readonly hostName: string | undefined,
  ) {
    super(
      ErrType.WasmVm,
      ErrCode.InvalidAction,
      `host function ${module}.${fnName} (${hostName ?? 'unknown'}) is not implemented by the Soroban sandbox`,
    );
  }
}

/** Entry needed by a transaction is archived; the network refuses to run it (ENTRY_ARCHIVED). */
export class ArchivedEntryError extends HostError {
  constructor(readonly keyXdr: string) {
    super(ErrType.Storage, ErrCode.InvalidAction, `ledger entry is archived and must be restored: ${keyXdr}`);
  }
}

/** Declared resources were not enough for what execution actually used. */
export class ResourceLimitError extends HostError {
  constructor(
    readonly resource: string,
    readonly used: number,
    readonly limit: number,
  ) {
    super(ErrType.Budget, ErrCode.ExceededLimit, `${resource} used ${used} exceeds declared limit ${limit}`);
  }
}

/** A malformed JSON-RPC call (bad params); mapped to JSON-RPC error -32602. */
export class RpcParamsError extends Error {
  constructor(
    readonly method: string,
    message: string,
  ) {
    super(`${method}: ${message}`);
    this.name = 'RpcParamsError';
  }
}

export function describeScError(type: number, code: number): string {
  const t = TYPE_NAMES[type] ?? `type${type}`;
  const c = type === ErrType.Contract ? String(code) : (CODE_NAMES[code] ?? `code${code}`);
  return `${t}, #${c}`;
}

export function scErrorFromParts(type: number, code: number): xdr.ScError {
  if (type === ErrType.Contract) return xdr.ScError.sceContract(code);
  // Union arms are keyed by type; the XDR layout is simply (type, code) as two big-endian u32s.
  const raw = Buffer.alloc(8);
  raw.writeUInt32BE(type, 0);
  raw.writeUInt32BE(code, 4);
  return xdr.ScError.fromXDR(raw);
}

export function scErrorParts(e: xdr.ScError): { type: number; code: number } {
  const type = e.switch().value;
  if (type === ErrType.Contract) return { type, code: e.contractCode() };
  return { type, code: e.code().value };
}
