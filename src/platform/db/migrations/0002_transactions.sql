-- Transaction engine: nonces allocated in the store, write-ahead transaction records, signed attempts.

CREATE TABLE evm_nonces (
  chain_id integer NOT NULL,
  address text NOT NULL,
  next_nonce bigint NOT NULL,
  PRIMARY KEY (chain_id, address)
);

-- Nonces allocated to transactions that never reached the chain: reused first, or filled.
CREATE TABLE evm_nonce_gaps (
  chain_id integer NOT NULL,
  address text NOT NULL,
  nonce bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, address, nonce)
);

CREATE TABLE evm_transactions (
  id uuid PRIMARY KEY,
  application_id uuid NOT NULL REFERENCES applications (id),
  chain_id integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('deploy', 'call', 'transfer', 'filler')),
  sender text NOT NULL,
  to_address text,
  contract_address text,
  value numeric(78, 0) NOT NULL DEFAULT 0,
  input text NOT NULL DEFAULT '0x',
  method text,
  spec_id integer REFERENCES contract_specs (id),
  nonce bigint,
  gas_limit bigint,
  max_fee_per_gas numeric(78, 0),
  max_priority_fee_per_gas numeric(78, 0),
  tx_hash text,
  raw_tx text,
  state text NOT NULL CHECK (state IN ('signed', 'inserted', 'processing', 'confirmed', 'error', 'evmError')),
  my_reference text,
  error_code text,
  error_message text,
  block_number bigint,
  block_hash text,
  gas_used numeric(78, 0),
  effective_gas_price numeric(78, 0),
  broadcast_count integer NOT NULL DEFAULT 0,
  last_broadcast_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  confirmed_at timestamptz
);

-- The constraint that makes a nonce impossible to hand out twice for live transactions.
CREATE UNIQUE INDEX evm_transactions_live_nonce ON evm_transactions (chain_id, sender, nonce)
  WHERE nonce IS NOT NULL AND state <> 'error';

CREATE INDEX evm_transactions_open ON evm_transactions (chain_id, state) WHERE state IN ('signed', 'inserted', 'processing');

CREATE INDEX evm_transactions_reference ON evm_transactions (application_id, my_reference) WHERE my_reference IS NOT NULL;

CREATE INDEX evm_transactions_hash ON evm_transactions (chain_id, tx_hash);

-- Every signed version of a transaction (fee bumps keep the nonce and change the hash).
CREATE TABLE evm_transaction_attempts (
  tx_hash text PRIMARY KEY,
  transaction_id uuid NOT NULL REFERENCES evm_transactions (id),
  raw_tx text NOT NULL,
  max_fee_per_gas numeric(78, 0) NOT NULL,
  max_priority_fee_per_gas numeric(78, 0) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX evm_transaction_attempts_by_transaction ON evm_transaction_attempts (transaction_id);

-- Contracts deployed through the service, so calls to them need no contractSpecsId.
CREATE TABLE evm_contracts (
  chain_id integer NOT NULL,
  address text NOT NULL,
  application_id uuid NOT NULL REFERENCES applications (id),
  spec_id integer NOT NULL REFERENCES contract_specs (id),
  alias text,
  transaction_id uuid NOT NULL REFERENCES evm_transactions (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, address)
);
