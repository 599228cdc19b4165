import { getContractAddress } from 'viem';
import { signEip1559 } from '../../platform/custody/evm-account.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { itemsWithHeldKeys } from '../../platform/idempotency/idempotency.ts';
import { insertDeployedContracts } from '../contracts/evm-contracts.repository.ts';
import { allocateNonces } from './nonces.repository.ts';
import type { SubmitTransactionParameters } from './submit-transaction.ts';
import {
  heldIdempotencyKeys,
  insertSignedTransactions,
  type NewTransaction,
  type SignedFields,
} from './transactions.repository.ts';

export type SigningItem = { parameters: SubmitTransactionParameters; record: NewTransaction };

/** A send of a group that was not signed: its idempotency key is held (answer the holder once committed). */
export type KeyHeld = { keyHeld: true };

/**
 * Allocates nonces for a group of sends of one sender, signs each and stores them, in the caller's
 * transaction. A keyed send whose key is held (in the store, or by an earlier send of the group) is not
 * signed and takes no nonce: it gets `keyHeld`. The unique index stays the arbiter (a group of another
 * sender or process).
 */
export async function signAndStoreGroup(
  tx: Queryable,
  items: SigningItem[],
): Promise<Array<SignedFields | KeyHeld>> {
  const first = items[0];
  if (!first) return [];
  const held = await itemsWithHeldKeys(
    items,
    (item) => item.record.idempotency?.key,
    (keys) => heldIdempotencyKeys(tx, first.record.applicationId, keys),
  );
  const signing = held.size === 0 ? items : items.filter((item) => !held.has(item));
  const { network, account } = first.parameters;
  const nonces =
    signing.length > 0 ? await allocateNonces(tx, network.chainId, account.address, signing.length) : [];
  const rows = await Promise.all(
    signing.map(async ({ parameters, record }, index) => {
      const nonce = nonces[index] as bigint;
      if (parameters.kind === 'deploy')
        record.contractAddress = getContractAddress({ from: account.address, nonce });
      return { tx: record, signed: await sign(parameters, nonce) };
    }),
  );
  await storeSigned(tx, signing, rows);
  if (held.size === 0) return rows.map((row) => row.signed);
  return items.map((item) =>
    held.has(item) ? { keyHeld: true } : (rows[signing.indexOf(item)]?.signed as SignedFields),
  );
}

/** The signed records, their first attempts and the contracts their deploys create, in one transaction. */
export async function storeSigned(
  tx: Queryable,
  items: readonly SigningItem[],
  rows: ReadonlyArray<{ tx: NewTransaction; signed: SignedFields }>,
): Promise<void> {
  await insertSignedTransactions(tx, rows);
  await insertDeployedContracts(
    tx,
    items.flatMap(({ parameters, record }) =>
      parameters.deployment && record.contractAddress
        ? [
            {
              chainId: record.chainId,
              address: record.contractAddress,
              applicationId: record.applicationId,
              specId: parameters.deployment.specId,
              alias: parameters.deployment.alias,
              transactionId: record.id,
            },
          ]
        : [],
    ),
  );
}

export async function sign(parameters: SubmitTransactionParameters, nonce: bigint): Promise<SignedFields> {
  const { rawTx, txHash } = await signEip1559(parameters.account, {
    chainId: parameters.network.chainId,
    nonce,
    to: parameters.to ?? null,
    value: parameters.value,
    data: parameters.data,
    gas: parameters.gasLimit,
    maxFeePerGas: parameters.fees.maxFeePerGas,
    maxPriorityFeePerGas: parameters.fees.maxPriorityFeePerGas,
  });
  return {
    nonce,
    gasLimit: parameters.gasLimit,
    maxFeePerGas: parameters.fees.maxFeePerGas,
    maxPriorityFeePerGas: parameters.fees.maxPriorityFeePerGas,
    txHash,
    rawTx,
  };
}
