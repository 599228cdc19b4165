import { type Abi, decodeAbiParameters, type Hex, isHex, toFunctionSelector } from 'viem';
import { quote } from '../../platform/errors/chaingate-error.ts';
import type { JsonValue } from '../../platform/json/json-value.ts';
import { stringifyLosslessJson } from '../../platform/json/lossless-json.ts';
import { canonicalSignature } from './canonical-type.ts';
import { toJsonValue } from './to-json-value.ts';

// viem does not re-export abitype's AbiError.
type AbiError = Extract<Abi[number], { type: 'error' }>;

export type RevertReason = { reason: string; errorName?: string; args?: JsonValue[] };

const errorSelector = '0x08c379a0';
const panicSelector = '0x4e487b71';

// Meanings from the Solidity docs ("Panic via assert and Error via require").
const panicMeanings: Record<number, string> = {
  0: 'generic compiler panic',
  1: 'assertion failed',
  17: 'arithmetic overflow',
  18: 'division or modulo by zero',
  33: 'invalid enum value',
  34: 'invalid storage byte array encoding',
  49: 'pop on empty array',
  50: 'array index out of bounds',
  65: 'out of memory',
  81: 'call to zero-initialized internal function',
};

// Big integers print unquoted, like Solidity literals; only non-hex strings are quoted.
function formatArg(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return /^0x[0-9a-fA-F]*$/.test(value) ? value : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(formatArg).join(', ')}]`;
  if (value !== null && typeof value === 'object') return stringifyLosslessJson(toJsonValue(value));
  return String(value);
}

function panicReason(code: bigint): string {
  const hex = `0x${code.toString(16).padStart(2, '0')}`;
  const meaning = code <= 0xffn ? panicMeanings[Number(code)] : undefined;
  return meaning ? `panic ${hex} (${meaning})` : `panic ${hex}`;
}

function findError(abis: Abi[], selector: string): AbiError | undefined {
  for (const abi of abis) {
    for (const item of abi) {
      if (
        item.type === 'error' &&
        toFunctionSelector(canonicalSignature(item.name, item.inputs)) === selector
      ) {
        return item;
      }
    }
  }
  return undefined;
}

function decodeKnown(abis: Abi[], selector: string, args: Hex): RevertReason | undefined {
  if (selector === errorSelector) {
    const [message] = decodeAbiParameters([{ type: 'string' }], args);
    return { reason: message, errorName: 'Error', args: [message] };
  }
  if (selector === panicSelector) {
    const [code] = decodeAbiParameters([{ type: 'uint256' }], args);
    return { reason: panicReason(code), errorName: 'Panic', args: [toJsonValue(code)] };
  }
  const error = findError(abis, selector);
  if (!error) return undefined;
  const values = decodeAbiParameters(error.inputs, args);
  return {
    reason: `${error.name}(${values.map(formatArg).join(', ')})`,
    errorName: error.name,
    args: values.map(toJsonValue),
  };
}

/** Turns revert data into a readable reason; `undefined` when the revert carried no data. */
export function decodeRevertReason(abis: Abi[], data: Hex | undefined): RevertReason | undefined {
  if (!data || data === '0x') return undefined;
  const selector = data.slice(0, 10).toLowerCase();
  try {
    const known = decodeKnown(abis, selector, `0x${data.slice(10)}`);
    if (known) return known;
  } catch {
    // A known selector with undecodable args is reported like an unknown one rather than hidden.
  }
  return { reason: `unknown error ${selector}` };
}

/**
 * The answer to a call the EVM failed whose revert data did not decode (or was not sent), from the
 * node's wording: "execution reverted", with the reason when the node put one in its text only
 * (Nethermind's "revert: <reason>"), or "execution failed: <what the node said>" (out of gas, an
 * invalid opcode).
 */
export function executionFailureAnswer(failure: string): string {
  if (!/revert/i.test(failure)) return `execution failed: ${quote(failure)}`;
  const reason = /^(?:execution reverted|reverted|revert)\s*:\s*(.+)$/is.exec(failure.trim())?.[1];
  // Nethermind adds ": revert" to a revert without a reason; hex is data that did not decode.
  return reason === undefined || /^revert$|^0x[0-9a-f]*$/i.test(reason)
    ? 'execution reverted'
    : `execution reverted: ${quote(reason)}`;
}

/** Nethermind's -32015 answers carry revert data as text: "Reverted 0x<data>". */
const revertedDataText = /^Reverted (0x[0-9a-fA-F]+)$/;

function hexIn(value: unknown, depth: number): Hex | undefined {
  if (typeof value === 'string') {
    const hex = revertedDataText.exec(value)?.[1] ?? value;
    return isHex(hex, { strict: true }) && hex !== '0x' ? hex : undefined;
  }
  if (value === null || typeof value !== 'object' || depth > 3) return undefined;
  const record = value as { raw?: unknown; data?: unknown; error?: unknown };
  // `raw` first: on ContractFunctionRevertedError, `data` is the decoded error object, not hex.
  return hexIn(record.raw, depth + 1) ?? hexIn(record.data, depth + 1) ?? hexIn(record.error, depth + 1);
}

/**
 * Finds revert data in a viem error: on the error itself or along its `cause` chain, as `raw`, `data`,
 * or the `data` of a nested JSON-RPC error object (nodes differ in how deep they put it).
 */
export function revertDataFromError(error: unknown): Hex | undefined {
  let current: unknown = error;
  for (let depth = 0; current !== null && typeof current === 'object' && depth < 32; depth++) {
    const found = hexIn(current, 0);
    if (found) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
