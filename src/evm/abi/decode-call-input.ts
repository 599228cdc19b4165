import {
  type Abi,
  type AbiFunction,
  type AbiParameter,
  decodeAbiParameters,
  type Hex,
  toFunctionSelector,
} from 'viem';
import type { JsonValue } from '../../platform/json/json-value.ts';
import { canonicalSignature, canonicalType } from './canonical-type.ts';
import { resolveConstructor } from './resolve-function.ts';
import { toJsonValue } from './to-json-value.ts';

export type DecodedInput = { name: string; type: string; value: JsonValue };

export type DecodedCallInput = {
  /** Full canonical signature, e.g. `transfer(address,uint256)`. */
  function: string;
  functionId: Hex;
  inputs: DecodedInput[];
};

function decodeInputs(inputs: readonly AbiParameter[], encoded: Hex): DecodedInput[] | undefined {
  let values: readonly unknown[];
  try {
    values = decodeAbiParameters(inputs, encoded);
  } catch {
    // Data that does not match the ABI is shown raw by callers rather than failing the whole answer.
    return undefined;
  }
  return inputs.map((input, index) => ({
    name: input.name || `arg${index}`,
    type: canonicalType(input),
    value: toJsonValue(values[index]),
  }));
}

/** Decodes transaction calldata against an ABI; `undefined` when the selector is not in it. */
export function decodeCallInput(abi: Abi, data: Hex): DecodedCallInput | undefined {
  if (data.length < 10) return undefined;
  const functionId = data.slice(0, 10).toLowerCase() as Hex;
  const fn = abi.find(
    (item): item is AbiFunction => item.type === 'function' && toFunctionSelector(item) === functionId,
  );
  if (!fn) return undefined;
  const inputs = decodeInputs(fn.inputs, `0x${data.slice(10)}`);
  if (!inputs) return undefined;
  return { function: canonicalSignature(fn.name, fn.inputs), functionId, inputs };
}

/**
 * Decodes the constructor args of a deploy transaction, whose data is the creation bytecode followed by
 * the ABI-encoded args; `undefined` when `data` does not start with `bytecode`.
 */
export function decodeConstructorArgs(abi: Abi, bytecode: Hex, data: Hex): DecodedInput[] | undefined {
  if (!data.toLowerCase().startsWith(bytecode.toLowerCase())) return undefined;
  return decodeInputs(resolveConstructor(abi).inputs, `0x${data.slice(bytecode.length)}`);
}
