import { Address, type rpc, type xdr } from '@stellar/stellar-sdk';
import type { JsonValue } from '../../platform/json/json-value.ts';
import type { ContractSpec } from '../spec/contract-spec.ts';
import { scErrorJson, scValToJson } from '../spec/scval-to-json.ts';

export type ContractEventJson = { contract: string | null; topics: JsonValue[]; data: JsonValue };

/** What a ledger says about a transaction, decoded once and stored with the record. */
export type Receipt = {
  /** The transaction result code (`txSuccess`, `txFailed`, …). */
  code: string;
  /** The operation's result code (`invokeHostFunctionSuccess`, `invokeHostFunctionTrapped`, …). */
  operationCode: string | null;
  fee_charged: number;
  ledger: number;
  createdAt: string;
  return_value: boolean;
  /** The decoded return value (JSON, with the contract's spec types when known). */
  result: JsonValue;
  events: ContractEventJson[] | null;
  error: {
    code: string;
    message: string;
    contractError: { code: number; name: string | null } | null;
  } | null;
};

export type LedgerOutcome = {
  state: 'success' | 'failed';
  ledger: number;
  feeCharged: bigint;
  receipt: Receipt;
  error: { code: string; message: string } | null;
};

/** The spec of the contract a transaction invoked, and the function, to decode with. */
export type DecodingHints = { spec: ContractSpec | undefined; method: string | null };

function operationCode(result: xdr.TransactionResult): string | null {
  const inner = result.result();
  if (!['txSuccess', 'txFailed'].includes(inner.switch().name)) return null;
  const first = inner.results()[0];
  if (!first) return null;
  if (first.switch().name !== 'opInner') return first.switch().name;
  const tr = first.tr();
  switch (tr.switch().name) {
    case 'invokeHostFunction':
      return tr.invokeHostFunctionResult().switch().name;
    case 'extendFootprintTtl':
      return tr.extendFootprintTtlResult().switch().name;
    case 'restoreFootprint':
      return tr.restoreFootprintResult().switch().name;
    default:
      return tr.switch().name;
  }
}

function eventJson(event: xdr.ContractEvent, hints: DecodingHints): ContractEventJson {
  const body = event.body().v0();
  const contractId = event.contractId();
  return {
    contract: contractId ? Address.contract(contractId as unknown as Buffer).toString() : null,
    topics: body.topics().map((topic) => scValToJson(topic, undefined, hints.spec)),
    data: scValToJson(body.data(), undefined, hints.spec),
  };
}

/** The ScError of the "error" diagnostic event a Soroban host emits for a failure, if any. */
export function errorEventOf(diagnostics: readonly xdr.DiagnosticEvent[]): xdr.ScError | undefined {
  for (const diagnostic of diagnostics) {
    const [first, second] = diagnostic.event().body().v0().topics();
    if (
      first?.switch().name === 'scvSymbol' &&
      first.sym().toString() === 'error' &&
      second?.switch().name === 'scvError'
    )
      return second.error();
  }
  return undefined;
}

/** The failure's ScError, from the diagnostic events the node sends (or the meta's, when it does not). */
function failureError(response: rpc.Api.GetFailedTransactionResponse): xdr.ScError | undefined {
  let diagnostics = response.diagnosticEventsXdr ?? [];
  if (diagnostics.length === 0) {
    const meta = response.resultMetaXdr;
    if (meta.switch() === 4) diagnostics = meta.v4().diagnosticEvents();
    else if (meta.switch() === 3) diagnostics = meta.v3().sorobanMeta()?.diagnosticEvents() ?? [];
  }
  return errorEventOf(diagnostics);
}

/** Decodes a SUCCESS or FAILED answer of `getTransaction` (or an entry of `getTransactions`). */
export function decodeLedgerOutcome(
  response: rpc.Api.GetSuccessfulTransactionResponse | rpc.Api.GetFailedTransactionResponse,
  hints: DecodingHints,
): LedgerOutcome {
  const result = response.resultXdr;
  const code = result.result().switch().name;
  const opCode = operationCode(result);
  const events = response.events?.contractEventsXdr.flat() ?? [];
  const base = {
    code,
    operationCode: opCode,
    fee_charged: Number(result.feeCharged().toBigInt()),
    ledger: response.ledger,
    createdAt: new Date(Number(response.createdAt) * 1000).toISOString(),
    events: events.length > 0 ? events.map((event) => eventJson(event, hints)) : null,
  };
  if (response.status === 'SUCCESS') {
    const returnValue = response.returnValue;
    const output = hints.method ? hints.spec?.func(hints.method)?.outputs()[0] : undefined;
    const hasValue = returnValue !== undefined && returnValue.switch().name !== 'scvVoid';
    return {
      state: 'success',
      ledger: response.ledger,
      feeCharged: result.feeCharged().toBigInt(),
      receipt: {
        ...base,
        return_value: hasValue,
        result: returnValue ? scValToJson(returnValue, output, hints.spec) : null,
        error: null,
      },
      error: null,
    };
  }
  const scError = failureError(response);
  const errorJson = scError ? scErrorJson(scError, hints.spec) : undefined;
  const contractError =
    scError && scError.switch().name === 'sceContract'
      ? { code: scError.contractCode(), name: (errorJson?.name as string | undefined) ?? null }
      : null;
  const failureCode = opCode && opCode !== 'invokeHostFunctionSuccess' ? opCode : code;
  const message = contractError
    ? `contract error #${contractError.code}${contractError.name ? ` (${contractError.name})` : ''}`
    : scError
      ? `failed with Error(${errorJson?.type}, ${errorJson?.code})`
      : `failed: ${failureCode}`;
  return {
    state: 'failed',
    ledger: response.ledger,
    feeCharged: result.feeCharged().toBigInt(),
    receipt: {
      ...base,
      return_value: false,
      result: null,
      error: { code: failureCode, message, contractError },
    },
    error: { code: failureCode, message },
  };
}
