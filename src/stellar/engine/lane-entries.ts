import type { Keypair } from '@stellar/stellar-sdk';
import type { FastifyBaseLogger } from 'fastify';
import type { KeyVault } from '../../platform/custody/key-vault.ts';
import type { StellarAccountRow } from '../../platform/custody/stellar-accounts.repository.ts';
import type { Database } from '../../platform/db/database.ts';
import type { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';
import type { PreparedTransaction, SignedEnvelope } from './prepared-transaction.ts';
import type { RecordWatch } from './record-watch.ts';
import type { NewStellarTransaction } from './stellar-transactions.repository.ts';

/** What goes through a submission lane (`submission-lanes.ts`), and what comes out. */

export type SigningFields = { operationXdr: string; sorobanDataXdr: string | null; inclusionFee: bigint };
export type Entry = { id: string; fields: SigningFields; signed: SignedEnvelope };
export type NewItem = {
  network: StellarNetwork;
  account: StellarAccountRow;
  prepared: PreparedTransaction;
  record: NewStellarTransaction;
};

export type SubmittedTransaction = {
  id: string;
  txHash: string;
  sequence: bigint;
  /**
   * False when the record is stored and kept for the tracker to submit: the network asked to try again
   * later, did not answer, or the store failed to record its answer.
   */
  accepted: boolean;
};

export type LaneResult = ({ ok: true } & SubmittedTransaction) | { ok: false; error: ChaingateError };

export type LaneContext = { db: Database; vault: KeyVault; watch: RecordWatch; logger: FastifyBaseLogger };

/**
 * `new`: a request waits for the answer. A submission that may have reached the network without an
 * answer (a timeout, a dropped connection) is kept, as EVM sends are: the request is answered with its
 * hash, the record stays `signed`, and the tracker submits the same envelope until the network has it
 * or it expires (then it fails `txTooLate`, and cannot land). Failing it instead would tell the client
 * to send again while the first may still land: paid twice. A submission that surely did not reach
 * the network (a refused connection, an HTTP 4xx, a JSON-RPC error) is given up with a 503, and its
 * number is taken by the next. `resubmit`: the tracker's stored records, left as they are when the
 * network does not answer, to be tried again on a later tick.
 */
export type SendMode =
  | { kind: 'new'; signer: Keypair }
  | { kind: 'resubmit'; isGone: (txHash: string) => Promise<boolean> };

/** An entry the lane answers for as held: submitted (`accepted`), or kept to be submitted again. */
export function held(entry: Entry, accepted: boolean): LaneResult {
  return { ok: true, id: entry.id, txHash: entry.signed.txHash, sequence: entry.signed.sequence, accepted };
}
