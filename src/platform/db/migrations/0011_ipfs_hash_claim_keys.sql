-- The idempotency key of the ERC-721 mint that claimed an ipfsHash (with its application, as keys are
-- per application). A repetition of that mint that arrives while the first is still on its way meets the
-- claim before the first's transaction is stored: it is told the key is in use (ask again), not that the
-- hash belongs to another mint.

ALTER TABLE erc721_ipfs_hashes ADD COLUMN application_id uuid, ADD COLUMN idempotency_key text;
