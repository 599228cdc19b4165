import { Operation, type xdr } from '@stellar/stellar-sdk';
import type { Application } from '../../applications/applications.service.ts';
import { unsealStellarKey } from '../../platform/custody/stellar-keys.ts';
import { ChaingateError, quote } from '../../platform/errors/chaingate-error.ts';
import type { Idempotency } from '../../platform/idempotency/idempotency.ts';
import { text } from '../spec/contract-spec.ts';
import { paramsToScVals } from '../spec/json-to-scval.ts';
import { applicationAccount } from './application-account.ts';
import { deployedContract } from './contract-spec-of.ts';
import { stellarNetworkFor } from './resolve-network.ts';
import { authorizeInvocation, lumens, simulateOperation } from './simulate-operation.ts';
import type { StellarContext } from './stellar-context.ts';
import { checkContract } from './strkeys.ts';
import { submitWithRestore } from './submit-with-restore.ts';

export type InvokeContractParameters = {
  application: Application;
  networkId: number;
  address: string;
  method: string;
  params: readonly unknown[];
  restore: boolean;
  myReference: string | undefined;
  /** On the invocation's own record (not on a restore submitted before it). */
  idempotency?: Idempotency | undefined;
};

export type InvokeContractReturnType = { txHash: string; status: 'PENDING' };

/** The invocation, simulated: the contract's spec converts the JSON params. */
async function simulateInvocation(
  context: StellarContext,
  parameters: Omit<InvokeContractParameters, 'myReference'>,
) {
  checkContract(parameters.address, 'address');
  const { platform } = context;
  const network = stellarNetworkFor(
    platform,
    parameters.application,
    parameters.networkId,
    'blockchainNetwork',
  );
  const contract = await deployedContract(network, parameters.address, 'address');
  const fn = contract.spec.func(parameters.method);
  if (!fn || parameters.method === '__constructor') {
    const names = contract.spec
      .functions()
      .map((item) => text(item.name()))
      .filter((name) => name !== '__constructor');
    throw new ChaingateError(
      'CG_ERR_UNKNOWN_METHOD',
      `method: the contract has no function ${quote(parameters.method)} (it has ${names.join(', ')})`,
    );
  }
  const args = paramsToScVals(contract.spec, fn, parameters.params, 'params');
  const account = await applicationAccount(platform, parameters.application, network);
  const operation = Operation.invokeContractFunction({
    contract: parameters.address,
    function: parameters.method,
    args,
  }) as unknown as xdr.Operation;
  const simulation = await simulateOperation(network, account.address, operation, {
    what: 'method',
    spec: contract.spec,
  });
  return { network, contract, account, simulation };
}

/**
 * Invokes a contract function with JSON params converted by the contract's own spec. Archived entries
 * are restored first when `restore` is true (else 400); an authorization the service cannot give is
 * refused before anything is signed. Answers once the transaction is submitted.
 */
export async function invokeContract(
  context: StellarContext,
  parameters: InvokeContractParameters,
): Promise<InvokeContractReturnType> {
  const { platform } = context;
  const { network, contract, account, simulation } = await simulateInvocation(context, parameters);
  if (simulation.restore && !parameters.restore) {
    throw new ChaingateError(
      'CG_ERR_STELLAR_ARCHIVED',
      `restore: the invocation needs archived ledger entries; send it with restore: true (restoring costs ${lumens(simulation.restore.feeStroops)} XLM)`,
    );
  }
  const keypair = () => unsealStellarKey(platform.vault, account);
  const authorized = await authorizeInvocation(
    network,
    simulation,
    { address: account.address, keypair },
    'method',
  );
  let sorobanData = simulation.sorobanData;
  if (authorized.signedHere) {
    const checked = await simulateOperation(network, account.address, authorized.operation, {
      what: 'method',
      spec: contract.spec,
    });
    sorobanData = checked.sorobanData;
  }
  const submitted = await submitWithRestore(context, network, account, simulation, {
    kind: 'invoke',
    operation: authorized.operation,
    sorobanData,
    contractAddress: parameters.address,
    method: parameters.method,
    specId: null,
    myReference: parameters.myReference ?? null,
    idempotency: parameters.idempotency,
  });
  return { txHash: submitted.txHash, status: 'PENDING' };
}

export type InvocationEstimate = { estimatedCost: number; restore: boolean; restoreCost: number };

/** The simulated cost of an invocation in lumens, and whether (and for how much) it needs a restore first. */
export async function estimateInvocation(
  context: StellarContext,
  parameters: Omit<InvokeContractParameters, 'myReference'>,
): Promise<InvocationEstimate> {
  const { simulation } = await simulateInvocation(context, parameters);
  return {
    estimatedCost: lumens(simulation.feeStroops),
    restore: simulation.restore !== null,
    restoreCost: simulation.restore ? lumens(simulation.restore.feeStroops) : 0,
  };
}
