import type { Abi, AbiParameter } from 'viem';
import type { Application } from '../../applications/applications.service.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { canonicalSignature, canonicalType } from '../abi/canonical-type.ts';
import { resolveConstructor } from '../abi/resolve-function.ts';
import { validateAbi } from '../specs/abi-validation.ts';
import {
  type ContractSpecRow,
  findVisibleSpec,
  insertOwnedSpec,
  listVisibleSpecs,
} from '../specs/contract-specs.repository.ts';
import type { EvmContext } from './evm-context.ts';

function summary(row: ContractSpecRow, applicationId: string) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    owned: row.owner_application_id === applicationId,
    shared: row.shared,
    audited: row.audited,
  };
}

/** Shared specs and the application's own. */
export async function listSpecs(context: EvmContext, parameters: { application: Application }) {
  const rows = await listVisibleSpecs(context.platform.db, parameters.application.id);
  return rows.map((row) => summary(row, parameters.application.id));
}

/** `name(type name, …)`: a signature a web2 developer can read, with the parameter names. */
function readable(name: string, inputs: readonly AbiParameter[]): string {
  return `${name}(${inputs.map((input) => `${canonicalType(input)}${input.name ? ` ${input.name}` : ''}`).join(', ')})`;
}

/** One spec with its ABI, its constructor and the signatures of its functions and events. */
export async function getSpec(context: EvmContext, parameters: { application: Application; id: number }) {
  const row = await findVisibleSpec(context.platform.db, parameters.application.id, parameters.id);
  if (!row) {
    throw new ChaingateError('CG_ERR_NOT_FOUND', `contract spec ${parameters.id} does not exist`, {
      context: { id: parameters.id },
    });
  }
  const abi = row.abi as Abi;
  const creation = resolveConstructor(abi);
  return {
    ...summary(row, parameters.application.id),
    deployable: row.bytecode !== null,
    constructor: {
      signature: readable('constructor', creation.inputs),
      inputs: creation.inputs.map((input) => ({ name: input.name ?? '', type: canonicalType(input) })),
    },
    functions: abi.flatMap((item) =>
      item.type === 'function'
        ? [
            {
              name: item.name,
              signature: canonicalSignature(item.name, item.inputs),
              readable: readable(item.name, item.inputs),
              stateMutability: item.stateMutability,
              outputs: item.outputs.map((output) => canonicalType(output)),
            },
          ]
        : [],
    ),
    events: abi.flatMap((item) =>
      item.type === 'event'
        ? [
            {
              name: item.name,
              signature: canonicalSignature(item.name, item.inputs),
              readable: readable(item.name, item.inputs),
            },
          ]
        : [],
    ),
    abi: [...abi] as unknown[],
  };
}

/** Stores an own ABI (and bytecode, to deploy it): premium plans only, the ABI validated item by item. */
export async function uploadSpec(
  context: EvmContext,
  parameters: {
    application: Application;
    name: string;
    description?: string | undefined;
    abi: unknown;
    bytecode?: string | undefined;
  },
): Promise<number> {
  if (parameters.application.plan !== 'premium') {
    throw new ChaingateError('CG_ERR_PLAN_FORBIDS', 'uploading contract specs needs a premium plan');
  }
  let abi = parameters.abi;
  if (typeof abi === 'string') {
    try {
      abi = JSON.parse(abi);
    } catch {
      throw new ChaingateError('CG_ERR_INVALID_ABI', 'abi is a string but not valid JSON');
    }
  }
  return insertOwnedSpec(context.platform.db, {
    applicationId: parameters.application.id,
    name: parameters.name,
    description: parameters.description ?? '',
    abi: validateAbi(abi),
    bytecode: parameters.bytecode ?? null,
  });
}
