-- Custodied wallets: creation hashes, wallets with their unlock secrets, e-mailed codes, signed callbacks.
-- Every time here is written by the service's clock (not now()), so a test can move it.

-- A wallet-creation hash. The hash is a bearer credential for the wallet page: only its SHA-256 is kept.
CREATE TABLE wallet_hashes (
  id uuid PRIMARY KEY,
  hash_sha256 text NOT NULL UNIQUE,
  application_id uuid NOT NULL REFERENCES applications (id),
  username text NOT NULL,
  strategies smallint[] NOT NULL,
  callback_url text NOT NULL,
  fallback_url text NOT NULL,
  cancel_url text NOT NULL,
  expires_at timestamptz NOT NULL,
  spent_at timestamptz,
  -- The strategy the user is setting up on the page, and its pending secret (TOTP sealed, e-mail code hashed).
  setup_strategy smallint CHECK (setup_strategy IN (1, 2, 3)),
  setup_totp_key_id text,
  setup_totp_nonce bytea,
  setup_totp_ciphertext bytea,
  setup_code_sha256 text,
  setup_code_expires_at timestamptz,
  setup_code_sent_at timestamptz,
  failed_attempts integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  created_at timestamptz NOT NULL
);

-- One wallet per user and application; its key is an evm_accounts row of kind 'custodied'.
CREATE TABLE custodied_wallets (
  id uuid PRIMARY KEY,
  application_id uuid NOT NULL REFERENCES applications (id),
  user_email text NOT NULL,
  address text NOT NULL UNIQUE REFERENCES evm_accounts (address),
  strategy smallint NOT NULL CHECK (strategy IN (1, 2, 3)),
  pin_hash text,
  totp_key_id text,
  totp_nonce bytea,
  totp_ciphertext bytea,
  -- The last TOTP time step accepted: a code of that step or an earlier one is never accepted again.
  totp_last_step bigint,
  failed_attempts integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  hash_id uuid NOT NULL REFERENCES wallet_hashes (id),
  created_at timestamptz NOT NULL,
  UNIQUE (application_id, user_email)
);

CREATE INDEX custodied_wallets_by_application ON custodied_wallets (application_id, created_at, id);

-- Single-use codes e-mailed to sign one transaction (strategy 3).
CREATE TABLE wallet_email_codes (
  id uuid PRIMARY KEY,
  wallet_id uuid NOT NULL REFERENCES custodied_wallets (id),
  code_sha256 text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL
);

CREATE INDEX wallet_email_codes_open ON wallet_email_codes (wallet_id, code_sha256) WHERE used_at IS NULL;

-- The HMAC key that signs an application's callbacks, sealed with the master key.
CREATE TABLE wallet_callback_keys (
  application_id uuid PRIMARY KEY REFERENCES applications (id),
  key_id text NOT NULL,
  key_nonce bytea NOT NULL,
  key_ciphertext bytea NOT NULL,
  created_at timestamptz NOT NULL
);

-- Success callbacks, stored with the wallet in one transaction and retried until the customer answers 2xx.
CREATE TABLE wallet_callback_deliveries (
  id uuid PRIMARY KEY,
  application_id uuid NOT NULL REFERENCES applications (id),
  wallet_id uuid NOT NULL REFERENCES custodied_wallets (id),
  url text NOT NULL,
  body text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  give_up_at timestamptz NOT NULL,
  last_status integer,
  last_error text,
  created_at timestamptz NOT NULL,
  delivered_at timestamptz
);

CREATE INDEX wallet_callback_deliveries_due ON wallet_callback_deliveries (next_attempt_at) WHERE state = 'pending';

CREATE INDEX wallet_callback_deliveries_by_application ON wallet_callback_deliveries (application_id, created_at);
