import { hash, Operation, SorobanDataBuilder, type xdr } from '@stellar/stellar-sdk';
import type { Application } from '../../applications/applications.service.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { Idempotency } from '../../platform/idempotency/idempotency.ts';
import { publicStatus } from '../engine/transaction-record.ts';
import { codeKey, instanceKey, readAccount, readCode, readInstance } from '../network/ledger-entries.ts';
import { applicationAccount } from './application-account.ts';
import { savedContract } from './contract-specs.ts';
import { stellarNetworkFor } from './resolve-network.ts';
import { simulateOperation } from './simulate-operation.ts';
import type { StellarContext } from './stellar-context.ts';
import { checkAccount, checkContract } from './strkeys.ts';

/** How long an extension waits for its ledger before answering PENDING. */
const EXTEND_WAIT_MS = 30_000;

export type TtlInformation = { isAlive: boolean; latestLedger: number; liveUntilLedger: number | null };

/** The TTL of a saved contract's code (its wasm) on a network. */
export async function contractCodeTtl(
  context: StellarContext,
  parameters: { application: Application; contractSpecsId: number; networkId: number },
): Promise<TtlInformation> {
  const network = stellarNetworkFor(
    context.platform,
    parameters.application,
    parameters.networkId,
    'blockchainNetwork',
  );
  const { row } = await savedContract(
    context.platform,
    parameters.application,
    parameters.contractSpecsId,
    'contractId',
  );
  const code = await readCode(network, hash(Buffer.from(row.wasm)));
  if (!code) {
    throw new ChaingateError(
      'CG_ERR_STELLAR_UNKNOWN_CONTRACT',
      `contractId: the wasm of contract ${row.id} is not on network ${network.networkId} (deploy it first)`,
    );
  }
  return {
    isAlive: code.isAlive,
    latestLedger: code.latestLedger,
    liveUntilLedger: code.liveUntilLedger ?? null,
  };
}

/** The TTL of a contract instance; `sourceAccount` (the requester) must exist on the network too. */
export async function contractInstanceTtl(
  context: StellarContext,
  parameters: { application: Application; address: string; networkId: number; sourceAccount: string },
): Promise<TtlInformation> {
  checkContract(parameters.address, 'address');
  checkAccount(parameters.sourceAccount, 'sourceAccount');
  const network = stellarNetworkFor(
    context.platform,
    parameters.application,
    parameters.networkId,
    'blockchainNetwork',
  );
  if (!(await readAccount(network, parameters.sourceAccount))) {
    throw new ChaingateError(
      'CG_ERR_STELLAR_UNKNOWN_ACCOUNT',
      `sourceAccount: ${parameters.sourceAccount} does not exist on network ${network.networkId}`,
    );
  }
  const instance = await readInstance(network, parameters.address);
  if (!instance) {
    throw new ChaingateError(
      'CG_ERR_STELLAR_UNKNOWN_CONTRACT',
      `address: no contract instance ${parameters.address} on network ${network.networkId}`,
    );
  }
  return {
    isAlive: instance.isAlive,
    latestLedger: instance.latestLedger,
    liveUntilLedger: instance.liveUntilLedger ?? null,
  };
}

export type ExtendTtlReturnType = {
  txHash: string;
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
  error?: string;
};

/**
 * Extends the TTL of a contract's instance and code so both live `extendTo` more ledgers, and waits
 * (up to 30 s) for the ledger: SUCCESS, or PENDING when the network is slower than that.
 */
export async function extendContractTtl(
  context: StellarContext,
  parameters: {
    application: Application;
    address: string;
    networkId: number;
    extendTo: number;
    idempotency?: Idempotency | undefined;
  },
): Promise<ExtendTtlReturnType> {
  checkContract(parameters.address, 'address');
  const { platform } = context;
  const network = stellarNetworkFor(
    platform,
    parameters.application,
    parameters.networkId,
    'blockchainNetwork',
  );
  const instance = await readInstance(network, parameters.address);
  if (!instance) {
    throw new ChaingateError(
      'CG_ERR_STELLAR_UNKNOWN_CONTRACT',
      `address: no contract instance ${parameters.address} on network ${network.networkId}`,
    );
  }
  if (!instance.isAlive) {
    throw new ChaingateError(
      'CG_ERR_STELLAR_ARCHIVED',
      `address: the instance of ${parameters.address} is archived: invoke it with restore: true first`,
    );
  }
  const keys = [instanceKey(parameters.address), ...(instance.wasmHash ? [codeKey(instance.wasmHash)] : [])];
  const operation = Operation.extendFootprintTtl({
    extendTo: parameters.extendTo,
  }) as unknown as xdr.Operation;
  const account = await applicationAccount(platform, parameters.application, network);
  const simulation = await simulateOperation(network, account.address, operation, {
    what: 'extend_to',
    sorobanData: new SorobanDataBuilder().setReadOnly(keys).build(),
  });
  const submitted = await context.engine.submit(network, account, {
    kind: 'extend_ttl',
    operation,
    sorobanData: simulation.sorobanData,
    contractAddress: parameters.address,
    method: null,
    specId: null,
    myReference: null,
    idempotency: parameters.idempotency,
  });
  const record = await context.engine.waitForRecord(submitted.id, EXTEND_WAIT_MS);
  const status = record ? publicStatus(record.state) : 'PENDING';
  return {
    txHash: submitted.txHash,
    status,
    ...(status === 'FAILED' ? { error: record?.error_message ?? record?.error_code ?? 'failed' } : {}),
  };
}
