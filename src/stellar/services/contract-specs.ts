import { hash } from '@stellar/stellar-sdk';
import type { Application } from '../../applications/applications.service.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { Platform } from '../../platform/platform.ts';
import { ContractSpec, functionSignature, text, typeName } from '../spec/contract-spec.ts';
import { parseContractWasm } from '../spec/wasm-module.ts';
import {
  findApplicationSpec,
  insertStellarSpec,
  type StellarSpecRow,
} from '../specs/stellar-specs.repository.ts';
import { stellarNetworkFor } from './resolve-network.ts';
import type { StellarContext } from './stellar-context.ts';

export type SaveContractParameters = {
  application: Application;
  wasm: Buffer;
  name: string;
  description: string;
  /** The database transaction to save in, when the save is part of a larger one (a finished build). */
  db?: Queryable;
};

/** Validates a compiled contract (wasm framing, WebAssembly validation, contractspecv0) and saves it. */
export async function saveContract(
  context: StellarContext,
  parameters: SaveContractParameters,
): Promise<{ id: number }> {
  const parsed = parseContractWasm(parameters.wasm);
  const id = await insertStellarSpec(parameters.db ?? context.platform.db, {
    applicationId: parameters.application.id,
    name: parameters.name,
    description: parameters.description,
    wasm: parameters.wasm,
    wasmHash: hash(parameters.wasm).toString('hex'),
    specXdr: parsed.specXdr,
  });
  return { id };
}

export type SavedContract = { row: StellarSpecRow; spec: ContractSpec };

/** A saved contract of the application; another application's id, or none, is a 400. */
export async function savedContract(
  platform: Platform,
  application: Application,
  id: number,
  field: string,
): Promise<SavedContract> {
  const row = await findApplicationSpec(platform.db, application.id, id);
  if (!row) {
    throw new ChaingateError('CG_ERR_UNKNOWN_SPEC', `${field}: contract specs id ${id} does not exist`);
  }
  return { row, spec: ContractSpec.fromXdr(row.spec_xdr) };
}

export type ContractMethod = {
  name: string;
  inputs: Array<{ name: string; type: string }>;
  output: string | null;
  signature: string;
};

/** Each function of a saved contract: `methods` as signatures, `functions` with the same parts apart. */
export async function listContractMethods(
  context: StellarContext,
  parameters: { application: Application; contractSpecsId: number; networkId: number },
): Promise<{ methods: string[]; functions: ContractMethod[] }> {
  stellarNetworkFor(context.platform, parameters.application, parameters.networkId, 'blockchainNetwork');
  const { spec } = await savedContract(
    context.platform,
    parameters.application,
    parameters.contractSpecsId,
    'contractId',
  );
  const functions = spec.functions().map((fn) => ({
    name: text(fn.name()),
    inputs: fn.inputs().map((input) => ({ name: text(input.name()), type: typeName(input.type()) })),
    output: fn.outputs()[0] ? typeName(fn.outputs()[0] as never) : null,
    signature: functionSignature(fn),
  }));
  return { methods: functions.map((fn) => fn.signature), functions };
}
