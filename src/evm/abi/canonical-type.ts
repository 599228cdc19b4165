import type { AbiParameter } from 'viem';

/**
 * The ABI type as it appears in a canonical signature: tuples are spelled out as `(t1,t2)` with their
 * array suffix kept, because that is what selectors are hashed over and what clients write.
 */
export function canonicalType(param: AbiParameter): string {
  if (!param.type.startsWith('tuple')) return param.type;
  const components = 'components' in param ? param.components : [];
  return `(${components.map(canonicalType).join(',')})${param.type.slice('tuple'.length)}`;
}

/** `name(t1,t2)` for a function, event, error or constructor. */
export function canonicalSignature(name: string, inputs: readonly AbiParameter[]): string {
  return `${name}(${inputs.map(canonicalType).join(',')})`;
}
