-- Foundation: settings, applications with hashed API keys, EVM accounts with encrypted keys, contract specs.

CREATE TABLE settings (
  key text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE applications (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  plan text NOT NULL CHECK (plan IN ('free', 'premium')),
  api_key_hash bytea NOT NULL,
  api_key_hint text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  key_rotated_at timestamptz
);

-- Every EVM key the service holds: application senders and (later) custodied wallets.
CREATE TABLE evm_accounts (
  address text PRIMARY KEY CHECK (address = lower(address)),
  application_id uuid NOT NULL REFERENCES applications (id),
  kind text NOT NULL CHECK (kind IN ('sender', 'custodied')),
  is_default boolean NOT NULL DEFAULT false,
  key_id text NOT NULL,
  key_nonce bytea NOT NULL,
  key_ciphertext bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX evm_accounts_one_default_sender ON evm_accounts (application_id) WHERE is_default;

CREATE INDEX evm_accounts_by_application ON evm_accounts (application_id, kind);

CREATE TABLE contract_specs (
  id serial PRIMARY KEY,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  abi jsonb NOT NULL,
  bytecode text,
  owner_application_id uuid REFERENCES applications (id),
  shared boolean NOT NULL DEFAULT false,
  audited boolean NOT NULL DEFAULT false,
  standard_name text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX contract_specs_by_owner ON contract_specs (owner_application_id);
