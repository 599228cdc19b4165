import type { Queryable } from '../db/database.ts';
import type { SealedSecret } from './key-vault.ts';

/** A row of `stellar_accounts`: the one account of an application on a Stellar network. */
export type StellarAccountRow = {
  application_id: string;
  network_id: number;
  address: string;
  key_id: string;
  key_nonce: Uint8Array;
  key_ciphertext: Uint8Array;
  next_sequence: string | null;
  funded_at: Date | null;
  created_at: Date;
};

/** Inserts the account unless the application already has one on that network (a concurrent first use). */
export async function insertStellarAccountIfAbsent(
  db: Queryable,
  row: { applicationId: string; networkId: number; address: string; sealed: SealedSecret },
): Promise<void> {
  await db.query(
    `INSERT INTO stellar_accounts (application_id, network_id, address, key_id, key_nonce, key_ciphertext)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (application_id, network_id) DO NOTHING`,
    [
      row.applicationId,
      row.networkId,
      row.address,
      row.sealed.keyId,
      row.sealed.nonce,
      row.sealed.ciphertext,
    ],
  );
}

export async function findStellarAccount(
  db: Queryable,
  applicationId: string,
  networkId: number,
): Promise<StellarAccountRow | undefined> {
  const rows = await db.query<StellarAccountRow>(
    'SELECT * FROM stellar_accounts WHERE application_id = $1 AND network_id = $2',
    [applicationId, networkId],
  );
  return rows[0];
}

export async function markStellarAccountFunded(
  db: Queryable,
  applicationId: string,
  networkId: number,
): Promise<void> {
  await db.query(
    'UPDATE stellar_accounts SET funded_at = now() WHERE application_id = $1 AND network_id = $2 AND funded_at IS NULL',
    [applicationId, networkId],
  );
}

/** Sets the first sequence number to hand out, once (read from the network on first use). */
export async function seedNextSequence(
  db: Queryable,
  applicationId: string,
  networkId: number,
  next: bigint,
): Promise<void> {
  await db.query(
    'UPDATE stellar_accounts SET next_sequence = $3 WHERE application_id = $1 AND network_id = $2 AND next_sequence IS NULL',
    [applicationId, networkId, next.toString()],
  );
}

/**
 * Takes `count` consecutive sequence numbers; the UPDATE holds the account's row lock until the
 * caller's transaction commits, so concurrent allocations (other processes included) never overlap.
 */
export async function allocateSequences(
  tx: Queryable,
  applicationId: string,
  networkId: number,
  count: number,
): Promise<bigint[]> {
  const rows = await tx.query<{ first: string }>(
    `UPDATE stellar_accounts SET next_sequence = next_sequence + $3
     WHERE application_id = $1 AND network_id = $2 AND next_sequence IS NOT NULL
     RETURNING next_sequence - $3 AS first`,
    [applicationId, networkId, count],
  );
  const first = rows[0]?.first;
  if (first === undefined) throw new Error(`no sequence row for ${applicationId} on ${networkId}`);
  return Array.from({ length: count }, (_, index) => BigInt(first) + BigInt(index));
}

/** Locks the account's row and moves its next sequence number to `next` (after the network refused one). */
export async function resetNextSequence(
  tx: Queryable,
  applicationId: string,
  networkId: number,
  next: bigint,
): Promise<void> {
  await tx.query(
    'UPDATE stellar_accounts SET next_sequence = $3 WHERE application_id = $1 AND network_id = $2',
    [applicationId, networkId, next.toString()],
  );
}

/** The account's row, locked until the caller's transaction ends. */
export async function lockStellarAccount(
  tx: Queryable,
  applicationId: string,
  networkId: number,
): Promise<StellarAccountRow | undefined> {
  const rows = await tx.query<StellarAccountRow>(
    'SELECT * FROM stellar_accounts WHERE application_id = $1 AND network_id = $2 FOR UPDATE',
    [applicationId, networkId],
  );
  return rows[0];
}
