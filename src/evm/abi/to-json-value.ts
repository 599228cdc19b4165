import { type AbiFunction, bytesToHex, type Hex } from 'viem';
import type { JsonValue } from '../../platform/json/json-value.ts';
import { decodeFunctionOutputs } from './function-call.ts';

const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Converts a viem-decoded value to a response value. Integers within ±(2^53−1) become numbers;
 * larger ones stay bigints, which the serializer writes as number literals with every digit (exact
 * on the wire; the documented service answers numbers, and its Go client decodes them as numbers).
 */
export function toJsonValue(value: unknown): JsonValue {
  if (typeof value === 'bigint') {
    return value <= maxSafe && value >= -maxSafe ? Number(value) : value;
  }
  if (typeof value === 'number') {
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) return BigInt(value);
    return Number.isFinite(value) ? value : null;
  }
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (value === null || value === undefined) return null;
  if (value instanceof Uint8Array) return bytesToHex(value);
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, toJsonValue(entry)]));
  }
  return String(value);
}

/**
 * Decodes a call's return data to one JSON entry per output, in order, so clients never have to tell
 * a single value from a list of values. Structs with named components become objects.
 */
export function decodeViewResult(fn: AbiFunction, data: Hex): JsonValue[] {
  if (fn.outputs.length === 0) return [];
  return decodeFunctionOutputs(fn, data).map(toJsonValue);
}
