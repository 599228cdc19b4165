import {
  Account,
  Address,
  authorizeEntry,
  type Keypair,
  Operation,
  rpc,
  TransactionBuilder,
  type xdr,
} from '@stellar/stellar-sdk';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';
import { INCLUSION_FEE } from '../engine/prepared-transaction.ts';
import { errorEventOf } from '../engine/receipt.ts';
import { rpcCall } from '../network/rpc-call.ts';
import type { ContractSpec } from '../spec/contract-spec.ts';
import { scErrorJson } from '../spec/scval-to-json.ts';

export type Simulation = {
  operation: xdr.Operation;
  sorobanData: xdr.SorobanTransactionData;
  /** Resource fee plus inclusion fee, in stroops. */
  feeStroops: bigint;
  returnValue: xdr.ScVal | undefined;
  auth: xdr.SorobanAuthorizationEntry[];
  latestLedger: number;
  /** Archived entries the operation needs: a RestoreFootprint to send first, and what it costs. */
  restore: { sorobanData: xdr.SorobanTransactionData; feeStroops: bigint } | null;
};

/** Stroops as lumens (7 decimals), for the cost fields. */
export function lumens(stroops: bigint): number {
  return Number(stroops) / 10_000_000;
}

/** The first line of an upstream message, bounded (a host error carries a whole event log). */
function firstLine(message: string): string {
  const line = message.split('\n')[0]?.trim() ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** Why a simulation failed, as a 400: a contract error with its number and name, or the host's reason. */
function simulationFailure(
  response: rpc.Api.SimulateTransactionErrorResponse,
  what: string,
  spec: ContractSpec | undefined,
): ChaingateError {
  const scError = errorEventOf(response.events);
  const contractCode = /Error\(Contract, #(\d+)\)/.exec(response.error)?.[1];
  const code =
    scError?.switch().name === 'sceContract'
      ? scError.contractCode()
      : contractCode
        ? Number(contractCode)
        : undefined;
  if (code !== undefined) {
    const name = spec?.errorName(code);
    return new ChaingateError(
      'CG_ERR_STELLAR_CONTRACT_ERROR',
      `${what}: the contract returned error #${code}${name ? ` (${name})` : ''}`,
      { context: { contractError: { code, name: name ?? null } } },
    );
  }
  const error = scError ? scErrorJson(scError) : undefined;
  const reason = error ? `Error(${error.type}, ${error.code}): ` : '';
  return new ChaingateError(
    'CG_ERR_STELLAR_SIMULATION_FAILED',
    `${what}: simulation failed: ${reason}${firstLine(response.error)}`,
  );
}

/**
 * Simulates one Soroban operation with `source` as the transaction's source account: the resources
 * and fee it needs, its return value and the authorizations it requires, and a restore preamble when
 * it touches archived entries. A failure is a 400 that says why (`what` names the request).
 */
export async function simulateOperation(
  network: StellarNetwork,
  source: string,
  operation: xdr.Operation,
  options: { what: string; spec?: ContractSpec; sorobanData?: xdr.SorobanTransactionData },
): Promise<Simulation> {
  const builder = new TransactionBuilder(new Account(source, '0'), {
    fee: String(INCLUSION_FEE),
    networkPassphrase: network.passphrase,
  })
    .addOperation(operation)
    .setTimeout(0);
  if (options.sorobanData) builder.setSorobanData(options.sorobanData);
  const response = await rpcCall(network, (server) => server.simulateTransaction(builder.build()));
  if (rpc.Api.isSimulationError(response)) throw simulationFailure(response, options.what, options.spec);
  const success = response as rpc.Api.SimulateTransactionSuccessResponse;
  const preamble = rpc.Api.isSimulationRestore(response) ? response.restorePreamble : null;
  return {
    operation,
    sorobanData: success.transactionData.build(),
    feeStroops: BigInt(success.minResourceFee) + BigInt(INCLUSION_FEE),
    returnValue: success.result?.retval,
    auth: success.result?.auth ?? [],
    latestLedger: success.latestLedger,
    restore: preamble
      ? {
          sorobanData: preamble.transactionData.build(),
          feeStroops: BigInt(preamble.minResourceFee) + BigInt(INCLUSION_FEE),
        }
      : null,
  };
}

/**
 * The invocation's authorizations, checked before anything is signed: the source account's own are
 * covered by the transaction signature; an address whose key the service holds (the account itself,
 * asked for by address) is signed here; any other address is refused with 400.
 */
export async function authorizeInvocation(
  network: StellarNetwork,
  simulation: Simulation,
  account: { address: string; keypair: () => Keypair },
  what: string,
): Promise<{ operation: xdr.Operation; signedHere: boolean }> {
  const foreign = simulation.auth
    .filter((entry) => entry.credentials().switch().name === 'sorobanCredentialsAddress')
    .map((entry) => Address.fromScAddress(entry.credentials().address().address()).toString())
    .filter((address) => address !== account.address);
  if (foreign.length > 0) {
    throw new ChaingateError(
      'CG_ERR_STELLAR_AUTH_REQUIRED',
      `${what}: the invocation needs the authorization of ${[...new Set(foreign)].join(', ')}, whose key the service does not hold; nothing was sent`,
    );
  }
  const signedHere = simulation.auth.some(
    (entry) => entry.credentials().switch().name === 'sorobanCredentialsAddress',
  );
  const auth = await Promise.all(
    simulation.auth.map((entry) =>
      entry.credentials().switch().name === 'sorobanCredentialsAddress'
        ? authorizeEntry(entry, account.keypair(), simulation.latestLedger + 1000, network.passphrase)
        : entry,
    ),
  );
  const operation = Operation.invokeHostFunction({
    func: simulation.operation.body().invokeHostFunctionOp().hostFunction(),
    auth,
  });
  // A signature checked on chain costs resources the recording simulation did not count.
  return { operation, signedHere };
}
