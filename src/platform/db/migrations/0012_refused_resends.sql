-- When the node first refused a stored transaction given to it again, in words that name no passing cause
-- (not a full pool, a rate limit, a fee below the base fee or an unreachable node). NULL once a node takes
-- it. The engine fails such a record (ERROR_CHAIN_LOST, its nonce filled) only after the node has kept
-- refusing it for CHAINGATE_REFUSED_FAIL_AFTER_SECONDS: one refusal in unknown words, from a node that
-- took the same bytes before, was often a passing one, and failing on it gave a live transaction's nonce
-- away.

ALTER TABLE evm_transactions ADD COLUMN refused_since timestamptz;
