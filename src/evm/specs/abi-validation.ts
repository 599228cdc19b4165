import type { Abi } from 'viem';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';

const itemTypes = new Set(['function', 'constructor', 'event', 'error', 'fallback', 'receive']);
const arraySuffix = /^(\[\d*\])*$/;

function isElementaryType(type: string): boolean {
  const match = /^(address|bool|string|function|bytes(\d*)|u?int(\d*))((\[\d*\])*)$/.exec(type);
  if (!match) return false;
  const bytesSize = match[2];
  const intSize = match[3];
  if (bytesSize) return Number(bytesSize) >= 1 && Number(bytesSize) <= 32 && !bytesSize.startsWith('0');
  if (intSize) return Number(intSize) % 8 === 0 && Number(intSize) >= 8 && Number(intSize) <= 256;
  return true;
}

function validateParameters(parameters: unknown, where: string): void {
  if (parameters === undefined) return;
  if (!Array.isArray(parameters)) throw new ChaingateError('CG_ERR_INVALID_ABI', `${where} must be an array`);
  parameters.forEach((parameter, index) => {
    const path = `${where}[${index}]`;
    const type = (parameter as { type?: unknown })?.type;
    if (typeof type !== 'string')
      throw new ChaingateError('CG_ERR_INVALID_ABI', `${path}.type must be a string`);
    if (type.startsWith('tuple')) {
      if (!arraySuffix.test(type.slice('tuple'.length))) {
        throw new ChaingateError('CG_ERR_INVALID_ABI', `${path}.type '${type}' is not a valid tuple type`);
      }
      validateParameters((parameter as { components?: unknown }).components ?? null, `${path}.components`);
      return;
    }
    if (!isElementaryType(type)) {
      throw new ChaingateError('CG_ERR_INVALID_ABI', `${path}.type '${type}' is not a Solidity ABI type`);
    }
  });
}

/** Checks that an uploaded ABI is a JSON ABI viem can encode against, naming the first bad item. */
export function validateAbi(abi: unknown, field = 'abi'): Abi {
  if (!Array.isArray(abi) || abi.length === 0) {
    throw new ChaingateError('CG_ERR_INVALID_ABI', `${field} must be a non-empty JSON array`);
  }
  abi.forEach((item, index) => {
    const type = (item as { type?: unknown })?.type;
    if (typeof item !== 'object' || item === null || typeof type !== 'string' || !itemTypes.has(type)) {
      throw new ChaingateError(
        'CG_ERR_INVALID_ABI',
        `${field}[${index}].type must be one of ${[...itemTypes].join(', ')}`,
      );
    }
    const name = (item as { name?: unknown }).name;
    if (
      (type === 'function' || type === 'event' || type === 'error') &&
      (typeof name !== 'string' || !name)
    ) {
      throw new ChaingateError('CG_ERR_INVALID_ABI', `${field}[${index}].name is required for a ${type}`);
    }
    validateParameters((item as { inputs?: unknown }).inputs, `${field}[${index}].inputs`);
    validateParameters((item as { outputs?: unknown }).outputs, `${field}[${index}].outputs`);
  });
  return abi as Abi;
}
