-- Idempotency keys of EVM sends (`Idempotency-Key` header). The unique index is the arbiter: two requests
-- with one key, however close, store one transaction. A send that ends before anything went out (the
-- node refused it, or was unreachable) releases its key, so a retry with the same key sends anew.

-- The fingerprint is a SHA-256 of the request (its route, query and body, secrets left out): a key
-- repeated with a different request is refused instead of answered with someone else's transaction.
ALTER TABLE evm_transactions ADD COLUMN idempotency_key text, ADD COLUMN idempotency_fingerprint text;

CREATE UNIQUE INDEX evm_transactions_idempotency_key ON evm_transactions (application_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
