import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Address, getContractAddress, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { type Database, isUniqueViolation } from '../../platform/db/database.ts';
import {
  databaseFailureWords,
  isDatabaseFailure,
  isUnansweredCommit,
} from '../../platform/db/database-failure.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { type Idempotency, keyInUse } from '../../platform/idempotency/idempotency.ts';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';
import { moveDeployedContract } from '../contracts/evm-contracts.repository.ts';
import { classifyBroadcastError } from './broadcast-errors.ts';
import type { BroadcastMarks } from './broadcast-marks.ts';
import { insufficientFunds, nodePoolFull, nodeRateLimited, nodeUnreachable } from './engine-errors.ts';
import { takeExplicitNonce } from './explicit-nonce.ts';
import type { Fees } from './fee-oracle.ts';
import type { GroupCommit } from './group-commit.ts';
import { IDEMPOTENCY_KEY_INDEX, replayOf } from './idempotent-replay.ts';
import { allocateNonce, resyncNonce } from './nonces.repository.ts';
import { resendEarlierNonces } from './resend-earlier-nonces.ts';
import { type KeyHeld, type SigningItem, sign, signAndStoreGroup, storeSigned } from './sign-and-store.ts';
import type { TransactionKind } from './transaction-record.ts';
import {
  failSignedTransaction,
  findSignedAttempt,
  type NewTransaction,
  replaceCurrentAttempt,
  type SignedFields,
  setContractAddress,
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
  /** A deployment's contract record, written in the same database transaction as the signed deploy. */
  deployment?: { specId: number; alias: string | null } | undefined;
  /** The request's idempotency key: a second request with it answers the first transaction. */
  idempotency?: Idempotency | undefined;
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
  signing: GroupCommit<SigningItem, SignedFields | KeyHeld>;
  /** Marks accepted broadcasts, many per statement. */
  marks: BroadcastMarks;
  /** Makes sure the store's nonce row of (chain, sender) exists, seeded from the chain once. */
  ensureNonceRow(network: EvmNetwork, address: Address): Promise<void>;
  logger: { warn(object: object, message: string): void };
};

/** The node has the transaction, pending or mined; undefined when the node did not answer the lookup. */
async function nodeKnows(network: EvmNetwork, txHash: Hex): Promise<boolean | undefined> {
  try {
    const found = await network.client.request({ method: 'eth_getTransactionByHash', params: [txHash] });
    return found !== null && found !== undefined;
  } catch {
    return undefined;
  }
}

/**
 * The write-ahead send: in one database transaction allocate the nonce, sign, and store the signed raw
 * transaction with its hash; only then broadcast. A crash after the commit loses nothing: the engine
 * rebroadcasts stored transactions at start. Resolves once the node accepted the transaction, or once
 * it is stored and kept for the engine to finish: the node's answer did not come, or the store failed
 * to record it. It rejects when nothing went out, except after a COMMIT that got no answer and that the
 * store cannot confirm: that error says the send may have been saved.
 */
export async function submitTransaction(
  context: EngineContext,
  parameters: SubmitTransactionParameters,
  /** In a database transaction of its own: after a group that a key taken elsewhere rolled back. */
  alone = false,
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
    idempotency: parameters.idempotency,
  };

  const explicitNonce = parameters.nonce;
  const store = (): Promise<SignedFields | KeyHeld> => {
    if (explicitNonce !== undefined)
      return context.db.transaction(async (tx) => {
        await takeExplicitNonce(tx, network.chainId, sender, explicitNonce);
        if (parameters.kind === 'deploy') {
          record.contractAddress = getContractAddress({ from: account.address, nonce: explicitNonce });
        }
        const fields = await sign(parameters, explicitNonce);
        await storeSigned(tx, [{ parameters, record }], [{ tx: record, signed: fields }]);
        return fields;
      });
    if (alone)
      return context.db.transaction(
        async (tx) => (await signAndStoreGroup(tx, [{ parameters, record }]))[0] as SignedFields | KeyHeld,
      );
    return context.signing.run(`${network.chainId}:${sender}`, { parameters, record });
  };
  /** The send that holds this request's key, committed: answered as this request's own. */
  const answerHolder = async (): Promise<SubmitTransactionReturnType> => {
    const replay = parameters.idempotency
      ? await replayOf(context.db, parameters.applicationId, parameters.idempotency)
      : undefined;
    if (replay) return replay;
    // Its send ended with nothing sent and released the key in between: this one may take it.
    if (!alone) return submitTransaction(context, parameters, true);
    throw keyInUse();
  };
  type Stored = { fields: SignedFields } | { answered: SubmitTransactionReturnType };
  const stored = await store().then(
    async (outcome): Promise<Stored> =>
      'keyHeld' in outcome ? { answered: await answerHolder() } : { fields: outcome },
    async (error: unknown): Promise<Stored> => {
      if (isUniqueViolation(error, IDEMPOTENCY_KEY_INDEX)) {
        // A key was taken, between the group's look and its insert, by a send outside the group (another
        // sender's, another process's): the group rolled back, nonces and all. Each of its sends goes
        // again in a transaction of its own; a keyed one meets the index there and answers the holder.
        if (!alone) return { answered: await submitTransaction(context, parameters, true) };
        if (parameters.idempotency) return { answered: await answerHolder() };
        throw error;
      }
      // The store may have carried out a COMMIT it did not confirm. If the record is there, the send was
      // saved and goes on as any other; if not, or if the store cannot say, the 503 says it may have been.
      if (!isUnansweredCommit(error)) throw error;
      const found = await findSignedAttempt(context.db, record.id).catch(() => undefined);
      if (!found) throw error;
      return { fields: found };
    },
  );
  if ('answered' in stored) return stored.answered;
  let signed = stored.fields;

  const answer = (fields: SignedFields): SubmitTransactionReturnType => ({
    id: record.id,
    txHash: fields.txHash,
    nonce: fields.nonce,
    contractAddress: record.contractAddress ? (record.contractAddress as Address) : undefined,
  });
  const accepted = async (fields: SignedFields): Promise<SubmitTransactionReturnType> => {
    await context.marks.accepted(record.id);
    return answer(fields);
  };
  /** Broadcasts, and records the node's answer; again on a nonce the node refused as used. */
  const settle = async (): Promise<SubmitTransactionReturnType> => {
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
          const known = await nodeKnows(network, signed.txHash);
          if (known) return accepted(signed);
          if (known === undefined) {
            // Nobody can say whether this very transaction took the nonce: signing it again under the
            // next would then send it twice. It is kept under its nonce, as an unanswered broadcast is;
            // the engine finds its receipt, or ends it ERROR_NONCE_CONFLICT once the node says so.
            context.logger.warn(
              { chainId: network.chainId, id: record.id, txHash: signed.txHash },
              'nonce too low, and the node did not say whether this transaction took it: kept',
            );
            return answer(signed);
          }
          // Someone else used this key, or the store lags the chain: move forward and sign again.
          if (attempt >= 3 || parameters.nonce !== undefined) {
            await failSignedTransaction(
              context.db,
              { ...row, nonce: null },
              { code: 'ERROR_NONCE_CONFLICT', message: `nonce ${signed.nonce} is already used on chain` },
            );
            throw new ChaingateError(
              'ERROR_NONCE_CONFLICT',
              `nonce ${signed.nonce} is already used on chain`,
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
            if (record.contractAddress) {
              await setContractAddress(tx, record.id, record.contractAddress);
              await moveDeployedContract(tx, record.id, record.contractAddress);
            }
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
            code: 'ERROR_NONCE_TOO_HIGH',
            message: `the node refused nonce ${signed.nonce} as too high`,
          });
          throw new ChaingateError(
            'ERROR_NONCE_TOO_HIGH',
            `the node of network ${network.chainId} refuses nonce ${signed.nonce} as too high: it is missing an earlier transaction of ${account.address}; retry shortly`,
          );
        }
        case 'insufficientFunds':
          await failSignedTransaction(context.db, row, {
            code: 'ERROR_INSUFICIENT_FUNDS',
            message: outcome.message,
          });
          throw insufficientFunds();
        case 'underpriced':
          await failSignedTransaction(
            context.db,
            { ...row, nonce: null },
            {
              code: 'ERROR_REPLACEMENT_UNDERPRICED',
              message: 'replacement transaction underpriced: raise gasPrice/priorityFee',
            },
          );
          throw new ChaingateError(
            'ERROR_REPLACEMENT_UNDERPRICED',
            'replacement transaction underpriced: raise gasPrice/priorityFee above the pending transaction',
          );
        case 'unanswered':
          // The request went out and no answer came: the node may hold the transaction, and may mine it.
          // Failing it would free its nonce for another transaction and tell the client to send again,
          // which pays twice. It stays signed under its nonce, as after a crash mid-send, and the engine
          // gives the node the same bytes until the chain has them (or refuses them for good).
          context.logger.warn(
            { chainId: network.chainId, id: record.id, txHash: signed.txHash, reason: outcome.message },
            'broadcast unanswered: the engine sends the stored transaction again',
          );
          return answer(signed);
        case 'unreachable':
          await failSignedTransaction(context.db, row, {
            code: 'ERROR_NODE_UNREACHABLE',
            message: outcome.message,
          });
          throw nodeUnreachable(network.chainId, outcome.cause);
        case 'rateLimited':
          // Refused before the node took it: the nonce goes back to the gaps, like an unreachable node's.
          await failSignedTransaction(context.db, row, {
            code: 'CG_ERR_DEPENDENCY',
            message: outcome.message,
          });
          throw nodeRateLimited(network.chainId, outcome.message);
        case 'poolFull':
          // Refused before the node took it, as a rate limit: the nonce goes back to the gaps.
          await failSignedTransaction(context.db, row, {
            code: 'CG_ERR_DEPENDENCY',
            message: outcome.message,
          });
          throw nodePoolFull(network.chainId);
        case 'feeCapTooLow':
        // A fresh send's fees were read just now: below the base fee, they are the client's gasPrice.
        case 'rejected':
          await failSignedTransaction(context.db, row, {
            code: 'ERROR_REJECTED_BY_NODE',
            message: outcome.message,
          });
          throw new ChaingateError(
            'ERROR_REJECTED_BY_NODE',
            `the node rejected the transaction: ${outcome.message}`,
          );
      }
    }
  };
  try {
    return await settle();
  } catch (error) {
    if (!isDatabaseFailure(error)) throw error;
    // The signed transaction was stored before it went out: a store that fails now (while recording
    // the node's answer, or re-signing) leaves it signed, and the engine gives it to the node again
    // as after a crash. An error here would invite the client to send again and pay twice, so it is
    // answered with its hash (201), and its record says how it ends.
    context.logger.warn(
      { chainId: network.chainId, id: record.id, txHash: signed.txHash, reason: databaseFailureWords(error) },
      'the store failed after the send was stored: the engine sends it again',
    );
    return answer(signed);
  }
}
