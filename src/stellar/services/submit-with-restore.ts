import { Operation, type xdr } from '@stellar/stellar-sdk';
import type { StellarAccountRow } from '../../platform/custody/stellar-accounts.repository.ts';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';
import type { SubmittedTransaction } from '../engine/lane-entries.ts';
import type { PreparedTransaction } from '../engine/prepared-transaction.ts';
import type { Simulation } from './simulate-operation.ts';
import type { StellarContext } from './stellar-context.ts';

/**
 * Submits a simulated transaction, preceded by a RestoreFootprint of the archived entries it needs
 * when the simulation asked for one. Both go through the account's lane, so they take consecutive
 * sequence numbers and the restoration lands first.
 */
export async function submitWithRestore(
  context: StellarContext,
  network: StellarNetwork,
  account: StellarAccountRow,
  simulation: Simulation,
  prepared: PreparedTransaction,
): Promise<SubmittedTransaction> {
  if (simulation.restore) {
    await context.engine.submit(network, account, {
      kind: 'restore',
      operation: Operation.restoreFootprint({}) as unknown as xdr.Operation,
      sorobanData: simulation.restore.sorobanData,
      contractAddress: prepared.contractAddress,
      method: null,
      specId: prepared.specId,
      myReference: prepared.myReference,
    });
  }
  return context.engine.submit(network, account, prepared);
}
