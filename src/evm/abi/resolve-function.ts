import type { Abi, AbiFunction } from 'viem';
import { ChaingateError, quote } from '../../platform/errors/chaingate-error.ts';
import { canonicalSignature } from './canonical-type.ts';

// viem does not re-export abitype's AbiConstructor.
export type AbiConstructor = Extract<Abi[number], { type: 'constructor' }>;

const maxListedNames = 10;

function functionsOf(abi: Abi): AbiFunction[] {
  return abi.filter((item): item is AbiFunction => item.type === 'function');
}

// Clients may write `tuple(address,uint256)` or add spaces; both hash to the same canonical form.
function normaliseSignature(signature: string): string {
  return signature.replace(/\s+/g, '').replace(/tuple\(/g, '(');
}

function unknownMethod(abi: Abi, method: string): ChaingateError {
  const names = [...new Set(functionsOf(abi).map((fn) => fn.name))];
  const listed = names.slice(0, maxListedNames).join(', ');
  const more = names.length > maxListedNames ? `, … (${names.length} in all)` : '';
  const available = names.length === 0 ? 'the ABI has no functions' : `available: ${listed}${more}`;
  return new ChaingateError(
    'CG_ERR_UNKNOWN_METHOD',
    `method: unknown function "${quote(method)}" (${available})`,
  );
}

/**
 * Finds the function `method` names: a bare name, or a full signature such as `transfer(address,uint256)`.
 * An overloaded bare name is settled by the number of params the caller sent.
 */
export function resolveFunction(abi: Abi, method: string, paramCount: number): AbiFunction {
  // ABIs are cached objects, so the answer for (method, count) is kept with them.
  let resolved = resolvedByAbi.get(abi);
  if (!resolved) {
    resolved = new Map();
    resolvedByAbi.set(abi, resolved);
  }
  const key = `${paramCount}:${method}`;
  const known = resolved.get(key);
  if (known) return known;
  const fn = findFunction(abi, method, paramCount);
  if (resolved.size < 1000) resolved.set(key, fn);
  return fn;
}

const resolvedByAbi = new WeakMap<Abi, Map<string, AbiFunction>>();

function findFunction(abi: Abi, method: string, paramCount: number): AbiFunction {
  const functions = functionsOf(abi);
  if (method.includes('(')) {
    const wanted = normaliseSignature(method);
    const match = functions.find((fn) => canonicalSignature(fn.name, fn.inputs) === wanted);
    if (!match) throw unknownMethod(abi, method);
    return match;
  }
  const named = functions.filter((fn) => fn.name === method.trim());
  const [only] = named;
  if (!only) throw unknownMethod(abi, method);
  // A single function is returned whatever paramCount is, so the count error can name its inputs.
  if (named.length === 1) return only;
  const byCount = named.filter((fn) => fn.inputs.length === paramCount);
  const [chosen] = byCount;
  if (chosen && byCount.length === 1) return chosen;
  const signatures = named.map((fn) => canonicalSignature(fn.name, fn.inputs)).join(', ');
  throw new ChaingateError(
    'CG_ERR_AMBIGUOUS_METHOD',
    `method: "${quote(method)}" is overloaded and ${paramCount} params do not pick one of ${signatures}; pass the full signature`,
  );
}

/** The ABI's constructor, or the implicit one Solidity generates (no inputs) when the ABI has none. */
export function resolveConstructor(abi: Abi): AbiConstructor {
  const found = abi.find((item): item is AbiConstructor => item.type === 'constructor');
  return found ?? { type: 'constructor', inputs: [], stateMutability: 'nonpayable' };
}
