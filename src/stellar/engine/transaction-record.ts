export type StellarTransactionKind = 'upload' | 'deploy' | 'invoke' | 'extend_ttl' | 'restore';

/**
 * `signed`: stored with its envelope before submission; `pending`: the network accepted it;
 * `success` | `failed`: in a ledger (a failure is charged its fee); `error`: refused before any
 * ledger, nothing spent.
 */
export type StellarTransactionState = 'signed' | 'pending' | 'success' | 'failed' | 'error';

/** A row of `stellar_transactions`: one logical transaction, whatever sequence numbers it was signed with. */
export type StellarTransactionRow = {
  id: string;
  application_id: string;
  network_id: number;
  kind: StellarTransactionKind;
  source: string;
  contract_address: string | null;
  method: string | null;
  spec_id: number | null;
  operation_xdr: string;
  soroban_data_xdr: string | null;
  inclusion_fee: string;
  sequence: string | null;
  envelope_xdr: string | null;
  tx_hash: string | null;
  valid_until: Date | null;
  state: StellarTransactionState;
  my_reference: string | null;
  error_code: string | null;
  error_message: string | null;
  ledger: number | null;
  fee_charged: string | null;
  receipt: unknown;
  submit_count: number;
  last_submitted_at: Date | null;
  created_at: Date;
  finished_at: Date | null;
};

export type PublicStatus = 'PENDING' | 'SUCCESS' | 'FAILED';

/** The status document 3 shows: PENDING until a ledger holds it, then SUCCESS or FAILED. */
export function publicStatus(state: StellarTransactionState): PublicStatus {
  if (state === 'success') return 'SUCCESS';
  if (state === 'failed' || state === 'error') return 'FAILED';
  return 'PENDING';
}
