import type { Queryable } from '../platform/db/database.ts';
import type { BalanceDelta } from './transfer-logs.ts';

export type HolderScanRow = {
  chain_id: number;
  contract_address: string;
  standard: string;
  deploy_block: string;
  scanned_block: string;
  scanned_block_hash: string | null;
};

type ScanKey = { chainId: number; contractAddress: string };

export async function findHolderScan(db: Queryable, key: ScanKey): Promise<HolderScanRow | undefined> {
  const rows = await db.query<HolderScanRow>(
    'SELECT * FROM token_holder_scans WHERE chain_id = $1 AND contract_address = $2',
    [key.chainId, key.contractAddress.toLowerCase()],
  );
  return rows[0];
}

/** The first read of a contract's holders: nothing scanned yet, the scan starts at the deploy block. */
export async function insertHolderScan(
  db: Queryable,
  scan: ScanKey & { standard: string; deployBlock: bigint },
): Promise<void> {
  await db.query(
    `INSERT INTO token_holder_scans (chain_id, contract_address, standard, deploy_block, scanned_block)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
    [
      scan.chainId,
      scan.contractAddress.toLowerCase(),
      scan.standard,
      scan.deployBlock.toString(),
      (scan.deployBlock - 1n).toString(),
    ],
  );
}

/**
 * Moves the scan from `fromScanned` to `toBlock`, only if no other reader moved it meanwhile (compare
 * and set): the caller applies its deltas in the same transaction only when this answers true.
 */
export async function advanceHolderScan(
  db: Queryable,
  scan: ScanKey & { fromScanned: bigint; toBlock: bigint; toBlockHash: string },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE token_holder_scans SET scanned_block = $4, scanned_block_hash = $5, updated_at = now()
      WHERE chain_id = $1 AND contract_address = $2 AND scanned_block = $3
      RETURNING scanned_block`,
    [
      scan.chainId,
      scan.contractAddress.toLowerCase(),
      scan.fromScanned.toString(),
      scan.toBlock.toString(),
      scan.toBlockHash,
    ],
  );
  return rows.length > 0;
}

/** The chain lost the scanned block: balances are dropped and the scan restarts at the deploy block. */
export async function resetHolderScan(
  db: Queryable,
  scan: ScanKey & { fromScanned: bigint; deployBlock: bigint },
): Promise<boolean> {
  const address = scan.contractAddress.toLowerCase();
  const rows = await db.query(
    `UPDATE token_holder_scans
        SET deploy_block = $4, scanned_block = $5, scanned_block_hash = NULL, updated_at = now()
      WHERE chain_id = $1 AND contract_address = $2 AND scanned_block = $3
      RETURNING scanned_block`,
    [
      scan.chainId,
      address,
      scan.fromScanned.toString(),
      scan.deployBlock.toString(),
      (scan.deployBlock - 1n).toString(),
    ],
  );
  if (rows.length === 0) return false;
  await db.query('DELETE FROM token_balances WHERE chain_id = $1 AND contract_address = $2', [
    scan.chainId,
    address,
  ]);
  return true;
}

export async function applyBalanceDeltas(
  db: Queryable,
  key: ScanKey,
  deltas: readonly BalanceDelta[],
): Promise<void> {
  if (deltas.length === 0) return;
  const address = key.contractAddress.toLowerCase();
  await db.query(
    `INSERT INTO token_balances (chain_id, contract_address, holder, token_id, balance)
     SELECT $1, $2, d.holder, d.token_id, d.delta
       FROM unnest($3::text[], $4::numeric[], $5::numeric[]) AS d(holder, token_id, delta)
     ON CONFLICT (chain_id, contract_address, holder, token_id)
       DO UPDATE SET balance = token_balances.balance + EXCLUDED.balance`,
    [
      key.chainId,
      address,
      deltas.map((d) => d.holder.toLowerCase()),
      deltas.map((d) => d.tokenId.toString()),
      deltas.map((d) => d.delta.toString()),
    ],
  );
  await db.query('DELETE FROM token_balances WHERE chain_id = $1 AND contract_address = $2 AND balance = 0', [
    key.chainId,
    address,
  ]);
}

export type HolderBalanceRow = { holder: string; token_id: string | null; balance: string };

export type ListHolderBalancesFilter = ScanKey & {
  /** Per holder (ERC-20, ERC-721: a count of NFTs) or per holder and id (ERC-1155, POAP). */
  grouping: 'holder' | 'holderAndId';
  tokenId: bigint | undefined;
  limit: number;
  offset: number;
};

/** A page of holders, largest balance first, and how many rows there are in all. */
export async function listHolderBalances(
  db: Queryable,
  filter: ListHolderBalancesFilter,
): Promise<{ rows: HolderBalanceRow[]; total: number }> {
  const params = [
    filter.chainId,
    filter.contractAddress.toLowerCase(),
    filter.tokenId === undefined ? null : filter.tokenId.toString(),
  ];
  const where = 'chain_id = $1 AND contract_address = $2 AND ($3::numeric IS NULL OR token_id = $3::numeric)';
  if (filter.grouping === 'holder') {
    const rows = await db.query<HolderBalanceRow>(
      `SELECT holder, NULL AS token_id, sum(balance)::text AS balance FROM token_balances WHERE ${where}
        GROUP BY holder ORDER BY sum(balance) DESC, holder LIMIT $4 OFFSET $5`,
      [...params, filter.limit, filter.offset],
    );
    const count = await db.query<{ total: string }>(
      `SELECT count(DISTINCT holder) AS total FROM token_balances WHERE ${where}`,
      params,
    );
    return { rows, total: Number(count[0]?.total ?? 0) };
  }
  const rows = await db.query<HolderBalanceRow>(
    `SELECT holder, token_id::text AS token_id, balance::text AS balance FROM token_balances WHERE ${where}
      ORDER BY balance DESC, holder, token_id LIMIT $4 OFFSET $5`,
    [...params, filter.limit, filter.offset],
  );
  const count = await db.query<{ total: string }>(
    `SELECT count(*) AS total FROM token_balances WHERE ${where}`,
    params,
  );
  return { rows, total: Number(count[0]?.total ?? 0) };
}
