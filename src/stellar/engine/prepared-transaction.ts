import { Account, type Keypair, TransactionBuilder, xdr } from '@stellar/stellar-sdk';
import type { Idempotency } from '../../platform/idempotency/idempotency.ts';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';
import type { StellarTransactionKind } from './transaction-record.ts';

/**
 * How long a signed envelope stays valid (its maxTime). Long enough for the tracker to submit it
 * again after a restart; after that the network refuses it with txTooLate and nothing is spent.
 */
export const ENVELOPE_LIFETIME_SECONDS = 600;

/** Inclusion fee per operation, in stroops (the network minimum); the resource fee comes on top. */
export const INCLUSION_FEE = 100;

/**
 * A simulated operation, ready to be signed under any sequence number: the operation with its
 * authorization entries, the Soroban resources and fee, and what the record says about it.
 */
export type PreparedTransaction = {
  kind: StellarTransactionKind;
  operation: xdr.Operation;
  sorobanData: xdr.SorobanTransactionData | null;
  contractAddress: string | null;
  method: string | null;
  specId: number | null;
  myReference: string | null;
  /** A deployment's contract record, written in the same database transaction as the signed deploy. */
  deployment?: { specId: number; salt: string } | undefined;
  /** The request's idempotency key: only on the request's own transaction, not an upload or restore. */
  idempotency?: Idempotency | undefined;
};

export type SignedEnvelope = { sequence: bigint; envelopeXdr: string; txHash: string; validUntil: Date };

/** Builds and signs the envelope of a prepared transaction under `sequence`. */
export function signEnvelope(
  network: StellarNetwork,
  keypair: Keypair,
  fields: { operationXdr: string; sorobanDataXdr: string | null; inclusionFee: bigint },
  sequence: bigint,
  now = Date.now(),
): SignedEnvelope {
  const validUntil = Math.floor(now / 1000) + ENVELOPE_LIFETIME_SECONDS;
  const builder = new TransactionBuilder(new Account(keypair.publicKey(), (sequence - 1n).toString()), {
    fee: fields.inclusionFee.toString(),
    networkPassphrase: network.passphrase,
    timebounds: { minTime: 0, maxTime: validUntil },
  }).addOperation(xdr.Operation.fromXDR(fields.operationXdr, 'base64'));
  if (fields.sorobanDataXdr)
    builder.setSorobanData(xdr.SorobanTransactionData.fromXDR(fields.sorobanDataXdr, 'base64'));
  const transaction = builder.build();
  transaction.sign(keypair);
  return {
    sequence,
    envelopeXdr: transaction.toEnvelope().toXDR('base64'),
    txHash: transaction.hash().toString('hex'),
    validUntil: new Date(validUntil * 1000),
  };
}
