import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Address, getContractAddress, type Hex, keccak256 } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { EvmNetwork } from '../../platform/chains/evm-networks.ts';
import type { Database, Queryable } from '../../platform/db/database.ts';
import { BadRequestError } from '../../platform/http/gateway-error.ts';
import { classifyBroadcastError } from './broadcast-errors.ts';
import type { BroadcastMarks } from './broadcast-marks.ts';
import {
  badNonce,
  errorCodes,
  insufficientFunds,
  nodeUnreachable,
  TransactionFailedError,
} from './engine-errors.ts';
import type { Fees } from './fee-oracle.ts';
import type { GroupCommit } from './group-commit.ts';
import { allocateNonce, allocateNonces, resyncNonce } from './nonce-allocator.ts';
import { resendEarlierNonces } from './resend-earlier-nonces.ts';
import type { TransactionKind } from './transaction-record.ts';
import {
  failSignedTransaction,
  insertSignedTransaction,
  insertSignedTransactions,
  type NewTransaction,
  replaceCurrentAttempt,
  type SignedFields,
} from './transactions.repository.ts';

/** "Nonce too high" answers tolerated per send (resending the earlier nonces each time): ~3 s in all. */
const NONCE_TOO_HIGH_RETRIES = 6;

export type SubmitTransactionParameters = {
  applicationId: string;
  network: EvmNetwork;
  account: PrivateKeyAccount;
  kind: TransactionKind;
  /** Undefined for a deployment. */
  to: Address | undefined;
  value: bigint;
  data: Hex;
  gasLimit: bigint;
  fees: Fees;
  /** Explicit nonce: replaces (accelerates) the pending transaction that holds it, or takes the next one. */
  nonce: bigint | undefined;
  myReference: string | null;
  specId: number | null;
  method: string | null;
};

export type SubmitTransactionReturnType = {
  id: string;
  txHash: Hex;
  nonce: bigint;
  contractAddress: Address | undefined;
};

export type EngineContext = {
  db: Database;
  /** Groups concurrent first-time signings of one sender into one database transaction. */
  signing: GroupCommit<SigningItem, SignedFields>;
  /** Marks accepted broadcasts, many per statement. */
  marks: BroadcastMarks;
  /** Makes sure the store's nonce row of (chain, sender) exists, seeded from the chain once. */
  ensureNonceRow(network: EvmNetwork, address: Address): Promise<void>;
};

export type SigningItem = { parameters: SubmitTransactionParameters; record: NewTransaction };

/** Allocates nonces for a group of sends of one sender, signs each and stores them, in the caller's transaction. */
export async function signAndStoreGroup(tx: Queryable, items: SigningItem[]): Promise<SignedFields[]> {
  const first = items[0];
  if (!first) return [];
  const { network, account } = first.parameters;
  const nonces = await allocateNonces(tx, network.chainId, account.address, items.length);
  const rows = await Promise.all(
    items.map(async ({ parameters, record }, index) => {
      const nonce = nonces[index] as bigint;
      if (parameters.kind === 'deploy')
        record.contractAddress = getContractAddress({ from: account.address, nonce });
      return { tx: record, signed: await sign(parameters, nonce) };
    }),
  );
  await insertSignedTransactions(tx, rows);
  return rows.map((row) => row.signed);
}

async function sign(parameters: SubmitTransactionParameters, nonce: bigint): Promise<SignedFields> {
  const rawTx = await parameters.account.signTransaction({
    chainId: parameters.network.chainId,
    type: 'eip1559',
    nonce: Number(nonce),
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
    txHash: keccak256(rawTx),
    rawTx,
  };
}

/** Takes the explicit nonce inside the caller's transaction, replacing the pending transaction holding it. */
async function takeExplicitNonce(
  tx: Queryable,
  chainId: number,
  sender: string,
  nonce: bigint,
): Promise<void> {
  const holder = await tx.query<{ id: string; state: string }>(
    `SELECT id, state FROM evm_transactions WHERE chain_id = $1 AND sender = $2 AND nonce = $3 AND state <> 'error' FOR UPDATE`,
    [chainId, sender, nonce.toString()],
  );
  if (holder[0]) {
    if (holder[0].state !== 'signed' && holder[0].state !== 'inserted') {
      throw badNonce(`nonce ${nonce} of ${sender} is already mined`);
    }
    await tx.query(
      `UPDATE evm_transactions SET state = 'error', error_code = $2, error_message = 'replaced by a transaction with the same nonce' WHERE id = $1`,
      [holder[0].id, errorCodes.replaced],
    );
    return;
  }
  const gap = await tx.query(
    'DELETE FROM evm_nonce_gaps WHERE chain_id = $1 AND address = $2 AND nonce = $3 RETURNING nonce',
    [chainId, sender, nonce.toString()],
  );
  if (gap.length === 1) return;
  const next = await tx.query<{ next_nonce: string }>(
    'SELECT next_nonce FROM evm_nonces WHERE chain_id = $1 AND address = $2 FOR UPDATE',
    [chainId, sender],
  );
  if (next[0] && BigInt(next[0].next_nonce) === nonce) {
    await tx.query('UPDATE evm_nonces SET next_nonce = next_nonce + 1 WHERE chain_id = $1 AND address = $2', [
      chainId,
      sender,
    ]);
    return;
  }
  throw badNonce(
    `nonce ${nonce} is neither a pending transaction of ${sender} nor its next nonce (${next[0]?.next_nonce ?? 'unknown'})`,
  );
}

/** The node has the transaction, pending or mined. */
async function nodeKnows(network: EvmNetwork, txHash: Hex): Promise<boolean> {
  const found = await network.client
    .request({ method: 'eth_getTransactionByHash', params: [txHash] })
    .catch(() => null);
  return found !== null && found !== undefined;
}

/**
 * The write-ahead send: in one database transaction allocate the nonce, sign, and store the signed raw
 * transaction with its hash; only then broadcast. A crash after the commit loses nothing: the engine
 * rebroadcasts stored transactions at start. Resolves once the node accepted the transaction.
 */
export async function submitTransaction(
  context: EngineContext,
  parameters: SubmitTransactionParameters,
): Promise<SubmitTransactionReturnType> {
  const { network, account } = parameters;
  const sender = account.address.toLowerCase();
  await context.ensureNonceRow(network, account.address);
  const record: NewTransaction = {
    id: randomUUID(),
    applicationId: parameters.applicationId,
    chainId: network.chainId,
    kind: parameters.kind,
    sender,
    to: parameters.to ?? null,
    contractAddress: null,
    value: parameters.value,
    input: parameters.data,
    method: parameters.method,
    specId: parameters.specId,
    myReference: parameters.myReference,
  };

  const explicitNonce = parameters.nonce;
  let signed =
    explicitNonce === undefined
      ? await context.signing.run(`${network.chainId}:${sender}`, { parameters, record })
      : await context.db.transaction(async (tx) => {
          await takeExplicitNonce(tx, network.chainId, sender, explicitNonce);
          if (parameters.kind === 'deploy') {
            record.contractAddress = getContractAddress({ from: account.address, nonce: explicitNonce });
          }
          const fields = await sign(parameters, explicitNonce);
          await insertSignedTransaction(tx, record, fields);
          return fields;
        });

  const accepted = async (fields: SignedFields): Promise<SubmitTransactionReturnType> => {
    await context.marks.accepted(record.id);
    return {
      id: record.id,
      txHash: fields.txHash,
      nonce: fields.nonce,
      contractAddress: record.contractAddress ? (record.contractAddress as Address) : undefined,
    };
  };
  for (let attempt = 0; ; attempt++) {
    let outcome: ReturnType<typeof classifyBroadcastError>;
    try {
      await network.client.request({ method: 'eth_sendRawTransaction', params: [signed.rawTx] });
      outcome = { kind: 'accepted' };
    } catch (error) {
      outcome = classifyBroadcastError(error);
    }
    const row = { id: record.id, chain_id: network.chainId, sender, nonce: signed.nonce.toString() };
    switch (outcome.kind) {
      case 'accepted':
        return accepted(signed);
      case 'nonceTooLow': {
        // Our own transaction may hold the nonce already (re-sent after a "nonce too high", or by the
        // engine): then it is accepted, and signing it again under a new nonce would send it twice.
        if (await nodeKnows(network, signed.txHash)) return accepted(signed);
        // Someone else used this key, or the store lags the chain: move forward and sign again.
        if (attempt >= 3 || parameters.nonce !== undefined) {
          await failSignedTransaction(
            context.db,
            { ...row, nonce: null },
            {
              code: errorCodes.nonceConflict,
              message: `nonce ${signed.nonce} is already used on chain`,
            },
          );
          throw new TransactionFailedError(
            `nonce ${signed.nonce} is already used on chain`,
            errorCodes.nonceConflict,
            400,
          );
        }
        const chainNonce = await network.client.getTransactionCount({
          address: account.address,
          blockTag: 'pending',
        });
        await resyncNonce(context.db, network.chainId, sender, chainNonce);
        signed = await context.db.transaction(async (tx) => {
          const nonce = await allocateNonce(tx, network.chainId, sender);
          if (parameters.kind === 'deploy')
            record.contractAddress = getContractAddress({ from: account.address, nonce });
          const fields = await sign(parameters, nonce);
          await tx.query('UPDATE evm_transactions SET contract_address = $2 WHERE id = $1', [
            record.id,
            record.contractAddress?.toLowerCase() ?? null,
          ]);
          await replaceCurrentAttempt(tx, record.id, fields);
          return fields;
        });
        continue;
      }
      case 'nonceTooHigh': {
        if (attempt < NONCE_TOO_HIGH_RETRIES && parameters.nonce === undefined) {
          await resendEarlierNonces(context.db, network, account.address, signed.nonce);
          await sleep(50 * 2 ** attempt);
          continue;
        }
        // Still refused: the nonce goes back to the gaps (re-used by the next send, else filled).
        await failSignedTransaction(context.db, row, {
          code: errorCodes.nonceTooHigh,
          message: `the node refused nonce ${signed.nonce} as too high`,
        });
        throw new TransactionFailedError(
          `the node of network ${network.chainId} refuses nonce ${signed.nonce} as too high: it is missing an earlier transaction of ${account.address}; retry shortly`,
          errorCodes.nonceTooHigh,
          503,
        );
      }
      case 'insufficientFunds':
        await failSignedTransaction(context.db, row, {
          code: errorCodes.insufficientFunds,
          message: outcome.message,
        });
        throw insufficientFunds();
      case 'underpriced':
        await failSignedTransaction(
          context.db,
          { ...row, nonce: null },
          {
            code: errorCodes.replacementUnderpriced,
            message: 'replacement transaction underpriced: raise gasPrice/priorityFee',
          },
        );
        throw new BadRequestError(
          'replacement transaction underpriced: raise gasPrice/priorityFee above the pending transaction',
          errorCodes.replacementUnderpriced,
        );
      case 'unreachable':
        await failSignedTransaction(context.db, row, {
          code: errorCodes.nodeUnreachable,
          message: outcome.message,
        });
        throw nodeUnreachable(network.chainId);
      case 'rejected':
        await failSignedTransaction(context.db, row, {
          code: errorCodes.rejectedByNode,
          message: outcome.message,
        });
        throw new TransactionFailedError(
          `the node rejected the transaction: ${outcome.message}`,
          errorCodes.rejectedByNode,
          400,
        );
    }
  }
}
