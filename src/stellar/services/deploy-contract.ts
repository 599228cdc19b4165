import { randomBytes } from 'node:crypto';
import { Address, hash, Operation, type xdr } from '@stellar/stellar-sdk';
import type { Application } from '../../applications/applications.service.ts';
import type { StellarAccountRow } from '../../platform/custody/stellar-accounts.repository.ts';
import { unsealStellarKey } from '../../platform/custody/stellar-keys.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { Idempotency } from '../../platform/idempotency/idempotency.ts';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';
import { readCode } from '../network/ledger-entries.ts';
import type { ContractSpec } from '../spec/contract-spec.ts';
import { paramsToScVals } from '../spec/json-to-scval.ts';
import { applicationAccount } from './application-account.ts';
import { savedContract } from './contract-specs.ts';
import { stellarNetworkFor } from './resolve-network.ts';
import { authorizeInvocation, lumens, type Simulation, simulateOperation } from './simulate-operation.ts';
import type { StellarContext } from './stellar-context.ts';
import { submitWithRestore } from './submit-with-restore.ts';

/** How long a deployment waits for its wasm upload to reach a ledger before answering 503. */
const UPLOAD_WAIT_MS = 60_000;

export type DeployContractParameters = {
  application: Application;
  networkId: number;
  contractSpecsId: number;
  params: readonly unknown[] | undefined;
  myReference: string | undefined;
  /** On the creation's record (not on the wasm upload or a restore before it). */
  idempotency?: Idempotency | undefined;
};

export type DeployContractReturnType = { address: string; salt: string; status: 'PENDING'; txHash: string };

/** Constructor arguments from JSON `params`, with the spec's `__constructor` types. */
function constructorArgs(spec: ContractSpec, params: readonly unknown[] | undefined): xdr.ScVal[] {
  const ctor = spec.func('__constructor');
  if (!ctor) {
    if (params && params.length > 0) {
      throw new ChaingateError(
        'CG_ERR_PARAM_COUNT',
        `params: the contract has no constructor, so it takes no parameters (got ${params.length})`,
      );
    }
    return [];
  }
  return paramsToScVals(spec, ctor, params ?? [], 'params');
}

function createOperation(source: string, wasmHash: Buffer, salt: Buffer, args: xdr.ScVal[]): xdr.Operation {
  return Operation.createCustomContract({
    address: Address.fromString(source),
    wasmHash,
    salt,
    constructorArgs: args,
  }) as unknown as xdr.Operation;
}

/** Uploads the wasm (when the network does not have it yet) and waits until a ledger holds it. */
async function ensureWasmUploaded(
  context: StellarContext,
  network: StellarNetwork,
  account: StellarAccountRow,
  wasm: Buffer,
  specId: number,
): Promise<void> {
  if (await readCode(network, hash(wasm))) return;
  const operation = Operation.uploadContractWasm({ wasm }) as unknown as xdr.Operation;
  const simulation = await simulateOperation(network, account.address, operation, {
    what: 'contractSpecsId',
  });
  const submitted = await context.engine.submit(network, account, {
    kind: 'upload',
    operation,
    sorobanData: simulation.sorobanData,
    contractAddress: null,
    method: null,
    specId,
    myReference: null,
  });
  const record = await context.engine.waitForRecord(submitted.id, UPLOAD_WAIT_MS);
  if (record?.state === 'success') return;
  if (record?.state === 'failed' || record?.state === 'error') {
    throw new ChaingateError(
      'CG_ERR_STELLAR_REJECTED',
      `contractSpecsId: uploading the wasm failed (${record.error_code ?? 'unknown'}: ${record.error_message ?? ''})`,
    );
  }
  throw new ChaingateError(
    'CG_ERR_STELLAR_UNREACHABLE',
    `network ${network.networkId}: the wasm upload ${submitted.txHash} is not in a ledger after ${UPLOAD_WAIT_MS / 1000} s; retry the deployment later`,
  );
}

/** What a deployment and its estimate start from; the constructor params are checked before any network call. */
async function deploymentSetup(
  context: StellarContext,
  parameters: Omit<DeployContractParameters, 'myReference'>,
) {
  const { platform } = context;
  const network = stellarNetworkFor(
    platform,
    parameters.application,
    parameters.networkId,
    'blockchainNetwork',
  );
  const { row, spec } = await savedContract(
    platform,
    parameters.application,
    parameters.contractSpecsId,
    'contractSpecsId',
  );
  const needsParams = (spec.func('__constructor')?.inputs().length ?? 0) > 0;
  const args =
    needsParams && parameters.params === undefined ? null : constructorArgs(spec, parameters.params);
  const account = await applicationAccount(platform, parameters.application, network);
  return { network, row, spec, args, account, wasm: Buffer.from(row.wasm) };
}

/**
 * Deploys a saved contract: uploads its wasm if the network lacks it, then creates the contract with a
 * random salt (and the constructor's `params`). Answers once the creation is submitted.
 */
export async function deployContract(
  context: StellarContext,
  parameters: DeployContractParameters,
): Promise<DeployContractReturnType> {
  const { platform } = context;
  const { network, row, spec, args, account, wasm } = await deploymentSetup(context, parameters);
  // A constructor that takes params, and none given: the count error names them.
  const values = args ?? constructorArgs(spec, []);
  await ensureWasmUploaded(context, network, account, wasm, row.id);

  const salt = randomBytes(32);
  const simulation = await simulateOperation(
    network,
    account.address,
    createOperation(account.address, hash(wasm), salt, values),
    {
      what: 'params',
      spec,
    },
  );
  const address = Address.fromScVal(simulation.returnValue as xdr.ScVal).toString();
  const authorized = await authorizeInvocation(
    network,
    simulation,
    { address: account.address, keypair: () => unsealStellarKey(platform.vault, account) },
    'params',
  );
  const submitted = await submitWithRestore(context, network, account, simulation, {
    kind: 'deploy',
    operation: authorized.operation,
    sorobanData: simulation.sorobanData,
    contractAddress: address,
    method: '__constructor',
    specId: row.id,
    myReference: parameters.myReference ?? null,
    deployment: { specId: row.id, salt: salt.toString('hex') },
    idempotency: parameters.idempotency,
  });
  return { address, salt: salt.toString('hex'), status: 'PENDING', txHash: submitted.txHash };
}

export type DeploymentEstimate = {
  estimatedCost: number;
  restore: boolean;
  restoreCost: number;
  uploadCost: number;
  createCost: number | null;
};

function simulatedCost(simulation: Simulation): number {
  return lumens(simulation.feeStroops);
}

/**
 * What deploying a saved contract costs, simulated: the upload when the network lacks the wasm, and
 * the creation when it can be simulated (the wasm must be on the network, and constructor `params`
 * given when the contract has a constructor); `createCost` is null otherwise.
 */
export async function estimateDeployment(
  context: StellarContext,
  parameters: Omit<DeployContractParameters, 'myReference'>,
): Promise<DeploymentEstimate> {
  const { network, spec, args, account, wasm } = await deploymentSetup(context, parameters);
  const code = await readCode(network, hash(wasm));
  let uploadCost = 0;
  if (!code) {
    const upload = Operation.uploadContractWasm({ wasm }) as unknown as xdr.Operation;
    uploadCost = simulatedCost(
      await simulateOperation(network, account.address, upload, { what: 'contractSpecsId' }),
    );
  }
  if (!code || !args) {
    return { estimatedCost: uploadCost, restore: false, restoreCost: 0, uploadCost, createCost: null };
  }
  const simulation = await simulateOperation(
    network,
    account.address,
    createOperation(account.address, hash(wasm), randomBytes(32), args),
    { what: 'params', spec },
  );
  const createCost = simulatedCost(simulation);
  return {
    estimatedCost: uploadCost + createCost,
    restore: simulation.restore !== null,
    restoreCost: simulation.restore ? lumens(simulation.restore.feeStroops) : 0,
    uploadCost,
    createCost,
  };
}
