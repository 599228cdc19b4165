-- Token APIs: ipfsHash claims of ERC-721 mints, and the holders index built from Transfer logs.

-- One row per ipfsHash minted (or being minted) on an ERC-721 contract: refuses a repeat before
-- signing, even while the first mint is still pending. A claim whose transaction failed is free again.
CREATE TABLE erc721_ipfs_hashes (
  chain_id integer NOT NULL,
  contract_address text NOT NULL CHECK (contract_address = lower(contract_address)),
  ipfs_hash text NOT NULL,
  claim_id uuid NOT NULL,
  transaction_id uuid REFERENCES evm_transactions (id),
  claimed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, contract_address, ipfs_hash)
);

-- How far the Transfer logs of a token contract were read into token_balances.
CREATE TABLE token_holder_scans (
  chain_id integer NOT NULL,
  contract_address text NOT NULL CHECK (contract_address = lower(contract_address)),
  standard text NOT NULL,
  deploy_block bigint NOT NULL,
  scanned_block bigint NOT NULL,
  -- Hash of scanned_block when it was read: a different hash later means a reorg, and a rescan.
  scanned_block_hash text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, contract_address)
);

-- Balances per holder and token id (0 for ERC-20; 1 per owned NFT for ERC-721). Zero rows are deleted.
CREATE TABLE token_balances (
  chain_id integer NOT NULL,
  contract_address text NOT NULL,
  holder text NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  balance numeric(78, 0) NOT NULL,
  PRIMARY KEY (chain_id, contract_address, holder, token_id)
);

CREATE INDEX token_balances_by_balance ON token_balances (chain_id, contract_address, balance DESC);
