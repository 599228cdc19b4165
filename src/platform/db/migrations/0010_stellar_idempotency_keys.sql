-- Idempotency keys of Stellar submissions (`Idempotency-Key` header), as 0009 for EVM sends: on the record
-- of the request's own transaction (not on an upload or a restore it submitted first). A submission that
-- ends with nothing spent (refused, or expired before any ledger) releases its key.

ALTER TABLE stellar_transactions ADD COLUMN idempotency_key text, ADD COLUMN idempotency_fingerprint text;

CREATE UNIQUE INDEX stellar_transactions_idempotency_key ON stellar_transactions (application_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
