-- Stellar: one account per application and network (sealed key, store-allocated sequence numbers),
-- saved contracts (wasm + contractspecv0), deployed contracts, write-ahead transaction records.

CREATE TABLE stellar_accounts (
  application_id uuid NOT NULL REFERENCES applications (id),
  network_id integer NOT NULL,
  address text NOT NULL,
  key_id text NOT NULL,
  key_nonce bytea NOT NULL,
  key_ciphertext bytea NOT NULL,
  -- The sequence number the next transaction takes; NULL until read from the network once.
  next_sequence bigint,
  funded_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (application_id, network_id)
);

CREATE UNIQUE INDEX stellar_accounts_address ON stellar_accounts (network_id, address);

CREATE TABLE stellar_contract_specs (
  id serial PRIMARY KEY,
  application_id uuid NOT NULL REFERENCES applications (id),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  wasm bytea NOT NULL,
  wasm_hash text NOT NULL,
  -- The contractspecv0 section, base64 (a stream of ScSpecEntry XDR).
  spec_xdr text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX stellar_contract_specs_by_application ON stellar_contract_specs (application_id);

CREATE TABLE stellar_transactions (
  id uuid PRIMARY KEY,
  application_id uuid NOT NULL REFERENCES applications (id),
  network_id integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('upload', 'deploy', 'invoke', 'extend_ttl', 'restore')),
  source text NOT NULL,
  contract_address text,
  method text,
  spec_id integer REFERENCES stellar_contract_specs (id),
  -- What is needed to sign it again under another sequence number.
  operation_xdr text NOT NULL,
  soroban_data_xdr text,
  inclusion_fee bigint NOT NULL,
  sequence bigint,
  envelope_xdr text,
  tx_hash text,
  valid_until timestamptz,
  -- signed: stored before submission; pending: the network accepted it; success | failed: in a
  -- ledger; error: refused before any ledger, nothing spent.
  state text NOT NULL CHECK (state IN ('signed', 'pending', 'success', 'failed', 'error')),
  my_reference text,
  error_code text,
  error_message text,
  ledger integer,
  fee_charged bigint,
  receipt jsonb,
  submit_count integer NOT NULL DEFAULT 0,
  last_submitted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);

-- The constraint that makes a sequence number impossible to hand out twice for live transactions.
CREATE UNIQUE INDEX stellar_transactions_live_sequence ON stellar_transactions (network_id, source, sequence)
  WHERE sequence IS NOT NULL AND state <> 'error';

CREATE INDEX stellar_transactions_open ON stellar_transactions (network_id, state) WHERE state IN ('signed', 'pending');

CREATE INDEX stellar_transactions_reference ON stellar_transactions (application_id, my_reference) WHERE my_reference IS NOT NULL;

CREATE INDEX stellar_transactions_hash ON stellar_transactions (network_id, tx_hash);

-- Contracts deployed through the service, so their transactions decode with the saved spec.
CREATE TABLE stellar_contracts (
  network_id integer NOT NULL,
  address text NOT NULL,
  application_id uuid NOT NULL REFERENCES applications (id),
  spec_id integer NOT NULL REFERENCES stellar_contract_specs (id),
  salt text NOT NULL,
  transaction_id uuid NOT NULL REFERENCES stellar_transactions (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (network_id, address)
);
