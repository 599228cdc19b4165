import {
  type AbiFunction,
  concatHex,
  decodeAbiParameters,
  encodeAbiParameters,
  type Hex,
  toFunctionSelector,
} from 'viem';
import { allSimpleWords, decodeSimpleWords, encodeSimpleWords } from './static-words.ts';

// A function object comes from a cached ABI, so its selector is computed once (a keccak and a
// signature format each time otherwise, on every view and send).
const selectors = new WeakMap<AbiFunction, Hex>();

function selectorOf(fn: AbiFunction): Hex {
  let selector = selectors.get(fn);
  if (!selector) {
    selector = toFunctionSelector(fn);
    selectors.set(fn, selector);
  }
  return selector;
}

/**
 * The calldata of a call: its selector and its arguments, ABI-encoded (viem's encodeFunctionData,
 * minus the lookups). The arguments come from `coerceParams`, already checked.
 */
export function encodeFunctionCall(fn: AbiFunction, args: readonly unknown[]): Hex {
  if (fn.inputs.length === 0) return selectorOf(fn);
  if (allSimpleWords(fn.inputs)) return `${selectorOf(fn)}${encodeSimpleWords(fn.inputs, args)}`;
  return concatHex([selectorOf(fn), encodeAbiParameters(fn.inputs, args as never)]);
}

/** A call's return data decoded by the function's outputs, one value per output. */
export function decodeFunctionOutputs(fn: AbiFunction, data: Hex): readonly unknown[] {
  if (allSimpleWords(fn.outputs)) {
    const values = decodeSimpleWords(fn.outputs, data);
    if (values) return values;
  }
  return decodeAbiParameters(fn.outputs, data);
}
