import type { Hex } from 'viem';

export type TransactionState = 'signed' | 'inserted' | 'processing' | 'confirmed' | 'error' | 'evmError';
export type TransactionKind = 'deploy' | 'call' | 'transfer' | 'filler';

/** A row of `evm_transactions`: one logical transaction, whatever fee bumps it went through. */
export type TransactionRow = {
  id: string;
  application_id: string;
  chain_id: number;
  kind: TransactionKind;
  sender: string;
  to_address: string | null;
  contract_address: string | null;
  value: string;
  input: Hex;
  method: string | null;
  spec_id: number | null;
  nonce: string | null;
  gas_limit: string | null;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  tx_hash: Hex | null;
  raw_tx: Hex | null;
  state: TransactionState;
  my_reference: string | null;
  error_code: string | null;
  error_message: string | null;
  block_number: string | null;
  block_hash: Hex | null;
  gas_used: string | null;
  effective_gas_price: string | null;
  broadcast_count: number;
  last_broadcast_at: Date | null;
  /** When a node first refused a re-send of it in words that name no passing cause; null once taken. */
  refused_since: Date | null;
  created_at: Date;
  confirmed_at: Date | null;
};

/** Public status of the spec: `signed` is internal (written, broadcast under way) and shows as inserted. */
export function publicStatus(state: TransactionState): Exclude<TransactionState, 'signed'> {
  return state === 'signed' ? 'inserted' : state;
}
