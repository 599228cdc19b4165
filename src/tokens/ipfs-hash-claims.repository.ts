import type { Queryable } from '../platform/db/database.ts';

export type IpfsHashClaim = {
  chainId: number;
  contractAddress: string;
  ipfsHash: string;
  claimId: string;
  /** The mint's idempotency key, with its application (keys are per application); else nulls. */
  applicationId: string | null;
  idempotencyKey: string | null;
};

/**
 * Claims an ipfsHash on a contract for one mint. A hash already claimed is taken over only when its
 * mint failed (`error`, `evmError`), or when a claim never got its transaction (the process stopped
 * between claim and send) and is old enough that no send of it can still be running.
 */
export async function claimIpfsHash(db: Queryable, claim: IpfsHashClaim): Promise<boolean> {
  const params = [
    claim.chainId,
    claim.contractAddress.toLowerCase(),
    claim.ipfsHash,
    claim.claimId,
    claim.applicationId,
    claim.idempotencyKey,
  ];
  const inserted = await db.query(
    `INSERT INTO erc721_ipfs_hashes (chain_id, contract_address, ipfs_hash, claim_id, application_id, idempotency_key)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING claim_id`,
    params,
  );
  if (inserted.length > 0) return true;
  const takenOver = await db.query(
    `UPDATE erc721_ipfs_hashes h
        SET claim_id = $4, transaction_id = NULL, claimed_at = now(), application_id = $5, idempotency_key = $6
      WHERE h.chain_id = $1 AND h.contract_address = $2 AND h.ipfs_hash = $3
        AND ((h.transaction_id IS NULL AND h.claimed_at < now() - interval '10 minutes')
          OR EXISTS (SELECT 1 FROM evm_transactions t
                      WHERE t.id = h.transaction_id AND t.state IN ('error', 'evmError')))
      RETURNING claim_id`,
    params,
  );
  return takenOver.length > 0;
}

/** The hash is claimed by a mint with the claim's key: the same keyed request, asked again meanwhile. */
export async function isClaimedWithKey(db: Queryable, claim: IpfsHashClaim): Promise<boolean> {
  if (claim.idempotencyKey === null) return false;
  const rows = await db.query(
    `SELECT 1 FROM erc721_ipfs_hashes
      WHERE chain_id = $1 AND contract_address = $2 AND ipfs_hash = $3 AND application_id = $4 AND idempotency_key = $5`,
    [
      claim.chainId,
      claim.contractAddress.toLowerCase(),
      claim.ipfsHash,
      claim.applicationId,
      claim.idempotencyKey,
    ],
  );
  return rows.length > 0;
}

/** The mint of a claim was accepted: the claim now lives and dies with that transaction. */
export async function attachIpfsHashTransaction(
  db: Queryable,
  claimId: string,
  transactionId: string,
): Promise<void> {
  await db.query('UPDATE erc721_ipfs_hashes SET transaction_id = $2 WHERE claim_id = $1', [
    claimId,
    transactionId,
  ]);
}

/** The mint of a claim was refused before it was signed: the hash is free again. */
export async function releaseIpfsHash(db: Queryable, claimId: string): Promise<void> {
  await db.query('DELETE FROM erc721_ipfs_hashes WHERE claim_id = $1 AND transaction_id IS NULL', [claimId]);
}
