import { randomUUID } from 'node:crypto';
import type { Keypair } from '@stellar/stellar-sdk';
import {
  allocateSequences,
  findStellarAccount,
  lockStellarAccount,
  resetNextSequence,
  type StellarAccountRow,
  seedNextSequence,
} from '../../platform/custody/stellar-accounts.repository.ts';
import { unsealStellarKey } from '../../platform/custody/stellar-keys.ts';
import {
  databaseFailureWords,
  isDatabaseFailure,
  isUnansweredCommit,
} from '../../platform/db/database-failure.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';
import { KeyedGroups } from '../../platform/scheduling/keyed-groups.ts';
import { insertDeployedContracts } from '../contracts/stellar-contracts.repository.ts';
import { readAccount } from '../network/ledger-entries.ts';
import { processedAloneOnTakenKey, refusedForHeldKeys } from './keyed-items.ts';
import {
  type Entry,
  held,
  type LaneContext,
  type LaneResult,
  type NewItem,
  type SendMode,
  type SigningFields,
  type SubmittedTransaction,
} from './lane-entries.ts';
import { notSubmitted, refusal, sequenceRefused } from './lane-errors.ts';
import { INCLUSION_FEE, type PreparedTransaction, signEnvelope } from './prepared-transaction.ts';
import { submitEnvelope } from './send-outcome.ts';
import {
  findTransactionById,
  insertSignedTransactions,
  listOpenBySourceBetween,
  listOpenTransactions,
  markRefused,
  markSubmitted,
  markUnanswered,
  maxOpenSequence,
  type NewStellarTransaction,
  replaceEnvelopes,
} from './stellar-transactions.repository.ts';

/** Times a group is signed again under fresh sequence numbers before its requests give up. */
const MAX_RESIGN_ROUNDS = 3;

/**
 * One lane per application account and network: transactions get consecutive sequence numbers from
 * the store (the row lock of `stellar_accounts` makes them unique), are signed and written ahead with
 * their envelopes in one database transaction per group, and reach the network in sequence order. A
 * number the network refuses (a gap, a number taken) is replaced by re-reading the account and signing
 * the rest of the group again; the tracker's re-submissions run in the same lane, between groups.
 */
export class SubmissionLanes {
  readonly #groups: KeyedGroups<NewItem, LaneResult>;

  constructor(private readonly context: LaneContext) {
    this.#groups = new KeyedGroups((_key, items) => this.#processNew(items));
  }

  static key(networkId: number, applicationId: string): string {
    return `${networkId}:${applicationId}`;
  }

  /** Signs, stores and submits; resolves once the network accepted it, or once it is stored and kept. */
  async submit(
    network: StellarNetwork,
    account: StellarAccountRow,
    prepared: PreparedTransaction,
  ): Promise<SubmittedTransaction> {
    const record: NewStellarTransaction = {
      id: randomUUID(),
      applicationId: account.application_id,
      networkId: network.networkId,
      kind: prepared.kind,
      source: account.address,
      contractAddress: prepared.contractAddress,
      method: prepared.method,
      specId: prepared.specId,
      operationXdr: prepared.operation.toXDR('base64'),
      sorobanDataXdr: prepared.sorobanData?.toXDR('base64') ?? null,
      inclusionFee: BigInt(INCLUSION_FEE),
      myReference: prepared.myReference,
      idempotency: prepared.idempotency,
    };
    const result = await this.#groups.run(SubmissionLanes.key(network.networkId, account.application_id), {
      network,
      account,
      prepared,
      record,
    });
    if (!result.ok) throw result.error;
    return { id: result.id, txHash: result.txHash, sequence: result.sequence, accepted: result.accepted };
  }

  /**
   * Submits the account's stored envelopes `ids` again, in sequence order, between the lane's groups.
   * `isGone(hash)` must say the network does not have the transaction before its number is replaced.
   */
  resubmit(
    network: StellarNetwork,
    applicationId: string,
    ids: ReadonlySet<string>,
    isGone: (txHash: string) => Promise<boolean>,
  ): Promise<void> {
    return this.#groups.exclusive(SubmissionLanes.key(network.networkId, applicationId), async () => {
      const rows = (await listOpenTransactions(this.context.db, network.networkId)).filter(
        (row) => row.application_id === applicationId && ids.has(row.id) && row.envelope_xdr && row.sequence,
      );
      if (rows.length === 0) return;
      const account = await findStellarAccount(this.context.db, applicationId, network.networkId);
      if (!account) return;
      const entries: Entry[] = rows.map((row) => ({
        id: row.id,
        fields: {
          operationXdr: row.operation_xdr,
          sorobanDataXdr: row.soroban_data_xdr,
          inclusionFee: BigInt(row.inclusion_fee),
        },
        signed: {
          sequence: BigInt(row.sequence as string),
          envelopeXdr: row.envelope_xdr as string,
          txHash: row.tx_hash as string,
          validUntil: row.valid_until ?? new Date(0),
        },
      }));
      await this.#sendInOrder(network, account, entries, { kind: 'resubmit', isGone });
    });
  }

  async #processNew(items: NewItem[]): Promise<LaneResult[]> {
    const refused = await refusedForHeldKeys(this.context.db, items);
    const admitted = refused.size === 0 ? items : items.filter((item) => !refused.has(item));
    if (admitted.length === 0) return items.map((item) => refused.get(item) as LaneResult);
    const results = await processedAloneOnTakenKey(admitted, (group) => this.#processAdmitted(group));
    if (refused.size === 0) return results;
    const answered = new Map(admitted.map((item, index) => [item, results[index] as LaneResult]));
    return items.map((item) => refused.get(item) ?? (answered.get(item) as LaneResult));
  }

  async #processAdmitted(items: NewItem[]): Promise<LaneResult[]> {
    const { network, account } = items[0] as NewItem;
    const row = await this.#seededAccount(network, account);
    const keypair = unsealStellarKey(this.context.vault, row);
    let written: Entry[] = [];
    const transaction = this.context.db.transaction(async (tx) => {
      const sequences = await allocateSequences(tx, row.application_id, network.networkId, items.length);
      const signed = items.map(({ record }, index) => ({
        record,
        signed: signEnvelope(network, keypair, fieldsOf(record), sequences[index] as bigint),
      }));
      await insertSignedTransactions(tx, signed);
      await insertDeployedContracts(
        tx,
        items.flatMap(({ prepared, record }) =>
          prepared.deployment && prepared.contractAddress
            ? [
                {
                  networkId: network.networkId,
                  address: prepared.contractAddress,
                  applicationId: record.applicationId,
                  specId: prepared.deployment.specId,
                  salt: prepared.deployment.salt,
                  transactionId: record.id,
                },
              ]
            : [],
        ),
      );
      written = signed.map(({ record, signed: envelope }) => ({
        id: record.id,
        fields: fieldsOf(record),
        signed: envelope,
      }));
      return written;
    });
    const entries = await transaction.catch(async (error: unknown) => {
      // The store may have carried out a COMMIT it did not confirm: the group was saved if its first
      // record is there (all or none), and then goes out as any other. Else the 503 says it may have been.
      if (!isUnansweredCommit(error) || !written[0]) throw error;
      const first = await findTransactionById(this.context.db, written[0].id).catch(() => undefined);
      if (!first) throw error;
      return written;
    });
    const results = new Map<string, LaneResult>();
    try {
      await this.#sendInOrder(network, row, entries, { kind: 'new', signer: keypair }, results);
    } catch (error) {
      if (!isDatabaseFailure(error)) throw error;
      // The envelopes were stored before they went out: a store that fails now (while recording the
      // network's answer) leaves them signed, and the tracker submits them again. An error would invite
      // the clients to send again and pay twice, so the ones not answered yet are answered as kept.
      this.context.logger.warn(
        { networkId: network.networkId, reason: databaseFailureWords(error) },
        'stellar: the store failed after the submissions were stored; the tracker submits them again',
      );
      for (const entry of entries) if (!results.has(entry.id)) results.set(entry.id, held(entry, false));
    }
    return entries.map(
      (entry) =>
        results.get(entry.id) ?? {
          ok: false,
          error: notSubmitted(network, `network ${network.networkId}: the submission was interrupted`),
        },
    );
  }

  /** The account with its next sequence number known: read from the network on first use. */
  async #seededAccount(network: StellarNetwork, account: StellarAccountRow): Promise<StellarAccountRow> {
    const current = await findStellarAccount(this.context.db, account.application_id, network.networkId);
    if (current?.next_sequence !== null && current?.next_sequence !== undefined) return current;
    const onChain = await readAccount(network, account.address);
    if (!onChain) {
      throw new ChaingateError(
        'CG_ERR_STELLAR_INSUFFICIENT_BALANCE',
        `the application's account ${account.address} does not exist on network ${network.networkId}: fund it with lumens`,
      );
    }
    await seedNextSequence(this.context.db, account.application_id, network.networkId, onChain.sequence + 1n);
    return (await findStellarAccount(
      this.context.db,
      account.application_id,
      network.networkId,
    )) as StellarAccountRow;
  }

  /**
   * Submits `entries` in sequence order, signing the rest again when the network refuses a number. Each
   * settled entry goes into `results` as soon as it is known.
   */
  async #sendInOrder(
    network: StellarNetwork,
    account: StellarAccountRow,
    entries: Entry[],
    mode: SendMode,
    results = new Map<string, LaneResult>(),
  ): Promise<Map<string, LaneResult>> {
    const { db, watch } = this.context;
    const refuse = async (entry: Entry, code: string, error: ChaingateError) => {
      await markRefused(db, entry.id, { code, message: error.shortMessage });
      watch.notify(entry.id);
      results.set(entry.id, { ok: false, error });
    };
    let queue = entries;
    let earlierSubmitted = false;
    for (let round = 0; queue.length > 0; round++) {
      const accepted: Entry[] = [];
      let resign: Entry[] = [];
      let retry: Entry[] = [];
      for (const [index, entry] of queue.entries()) {
        const outcome = await submitEnvelope(network, entry.signed.envelopeXdr);
        if (outcome.kind === 'accepted') {
          accepted.push(entry);
          continue;
        }
        const rest = queue.slice(index);
        if (outcome.kind === 'tryAgainLater') {
          for (const later of rest) results.set(later.id, held(later, false));
        } else if (outcome.kind === 'unreachable') {
          if (mode.kind === 'new' && outcome.maybeDelivered) {
            // Kept with the rest of the group (their numbers follow its number), as after
            // TRY_AGAIN_LATER: the tracker submits them in order.
            await markUnanswered(db, [entry.id]);
            this.context.logger.warn(
              {
                networkId: network.networkId,
                id: entry.id,
                txHash: entry.signed.txHash,
                reason: outcome.message,
              },
              'stellar: a submission got no answer; it is kept and submitted again',
            );
            for (const later of rest) results.set(later.id, held(later, false));
          } else if (mode.kind === 'new') {
            for (const later of rest)
              await refuse(later, 'CG_ERR_STELLAR_UNREACHABLE', notSubmitted(network, outcome.message));
          }
        } else if (outcome.kind === 'badSequence') {
          // The number is not the account's next one. Before a stored envelope is replaced, make sure
          // it did not just land (a re-submission racing a ledger close).
          if (mode.kind === 'new' || (await mode.isGone(entry.signed.txHash))) {
            // An earlier record the network lacks (kept after a submission without an answer, or
            // dropped from its queue) is what the number waits for: submit it, then this one again.
            // Once per call; if the number is still refused, it is signed again below.
            if (!earlierSubmitted && (await this.#submitEarlier(network, account, entry, queue))) {
              earlierSubmitted = true;
              retry = rest;
            } else resign = rest;
          }
        } else {
          const code = outcome.kind === 'refused' ? outcome.code : 'txTooLate';
          await refuse(entry, code, refusal(network, account.address, outcome));
          resign = queue.slice(index + 1);
        }
        break;
      }
      await markSubmitted(
        db,
        accepted.map((entry) => entry.id),
      );
      for (const entry of accepted) results.set(entry.id, held(entry, true));
      if (retry.length > 0) {
        queue = retry;
        continue;
      }
      if (resign.length === 0) break;
      if (round >= MAX_RESIGN_ROUNDS) {
        const error = sequenceRefused(network, account.address);
        for (const entry of resign) await refuse(entry, 'txBadSeq', error);
        break;
      }
      try {
        const signer = mode.kind === 'new' ? mode.signer : unsealStellarKey(this.context.vault, account);
        queue = await this.#resign(network, account, resign, signer);
      } catch (error) {
        // A request's records are given up (never sent with a valid number); the tracker's keep their
        // envelopes and are tried again on a later tick.
        if (mode.kind === 'resubmit') break;
        const reason = error instanceof ChaingateError ? error.shortMessage : (error as Error).message;
        for (const entry of resign)
          await refuse(entry, 'CG_ERR_STELLAR_UNREACHABLE', notSubmitted(network, reason));
        break;
      }
    }
    return results;
  }

  /**
   * Submits the account's open records numbered between its number on the network and `entry`'s, in
   * order, stopping at the first the network does not take. `queue` (the call's own records) is left
   * out. Answers whether the network took any, so that `entry`'s number may now be the next one.
   */
  async #submitEarlier(
    network: StellarNetwork,
    account: StellarAccountRow,
    entry: Entry,
    queue: Entry[],
  ): Promise<boolean> {
    const onChain = await readAccount(network, account.address).catch(() => undefined);
    if (!onChain) return false;
    const earlier = await listOpenBySourceBetween(
      this.context.db,
      network.networkId,
      account.address,
      onChain.sequence,
      entry.signed.sequence,
      queue.map((queued) => queued.id),
    );
    const taken: string[] = [];
    for (const row of earlier) {
      const outcome = await submitEnvelope(network, row.envelope_xdr as string);
      if (outcome.kind !== 'accepted') break;
      taken.push(row.id);
    }
    await markSubmitted(this.context.db, taken);
    if (taken.length > 0)
      this.context.logger.info(
        { networkId: network.networkId, account: account.address, count: taken.length },
        'stellar: submitted earlier open transactions the network lacked',
      );
    return taken.length > 0;
  }

  /**
   * New sequence numbers for `entries`, from the account's number on the network and the numbers the
   * account's other open records hold, under the account's row lock.
   */
  async #resign(
    network: StellarNetwork,
    account: StellarAccountRow,
    entries: Entry[],
    keypair: Keypair,
  ): Promise<Entry[]> {
    const onChain = await readAccount(network, account.address);
    if (!onChain)
      throw new Error(`account ${account.address} no longer exists on network ${network.networkId}`);
    return this.context.db.transaction(async (tx) => {
      await lockStellarAccount(tx, account.application_id, network.networkId);
      const ids = entries.map((entry) => entry.id);
      const held = await maxOpenSequence(tx, network.networkId, account.address, ids);
      const first = (held !== undefined && held > onChain.sequence ? held : onChain.sequence) + 1n;
      const renewed = entries.map((entry, index) => ({
        ...entry,
        signed: signEnvelope(network, keypair, entry.fields, first + BigInt(index)),
      }));
      await replaceEnvelopes(tx, renewed);
      await resetNextSequence(tx, account.application_id, network.networkId, first + BigInt(entries.length));
      this.context.logger.info(
        {
          networkId: network.networkId,
          account: account.address,
          first: first.toString(),
          count: entries.length,
        },
        'stellar: signed again under new sequence numbers',
      );
      return renewed;
    });
  }
}

function fieldsOf(record: NewStellarTransaction): SigningFields {
  return {
    operationXdr: record.operationXdr,
    sorobanDataXdr: record.sorobanDataXdr,
    inclusionFee: record.inclusionFee,
  };
}
