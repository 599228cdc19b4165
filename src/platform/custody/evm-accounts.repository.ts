import type { Queryable } from '../db/database.ts';
import type { SealedSecret } from './key-vault.ts';

export type EvmAccountKind = 'sender' | 'custodied';

export type EvmAccountRow = {
  address: string;
  application_id: string;
  kind: EvmAccountKind;
  is_default: boolean;
  key_id: string;
  key_nonce: Uint8Array;
  key_ciphertext: Uint8Array;
  created_at: Date;
};

export async function insertEvmAccount(
  db: Queryable,
  row: {
    address: string;
    applicationId: string;
    kind: EvmAccountKind;
    isDefault: boolean;
    sealed: SealedSecret;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO evm_accounts (address, application_id, kind, is_default, key_id, key_nonce, key_ciphertext)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      row.address.toLowerCase(),
      row.applicationId,
      row.kind,
      row.isDefault,
      row.sealed.keyId,
      row.sealed.nonce,
      row.sealed.ciphertext,
    ],
  );
}

/** The account only if it belongs to `applicationId`: another application's account is never returned. */
export async function findApplicationAccount(
  db: Queryable,
  applicationId: string,
  address: string,
): Promise<EvmAccountRow | undefined> {
  const rows = await db.query<EvmAccountRow>(
    'SELECT * FROM evm_accounts WHERE application_id = $1 AND address = $2',
    [applicationId, address.toLowerCase()],
  );
  return rows[0];
}

export async function listApplicationAccounts(
  db: Queryable,
  applicationId: string,
  kind: EvmAccountKind,
): Promise<EvmAccountRow[]> {
  return db.query<EvmAccountRow>(
    'SELECT * FROM evm_accounts WHERE application_id = $1 AND kind = $2 ORDER BY created_at, address',
    [applicationId, kind],
  );
}

export async function findDefaultSender(
  db: Queryable,
  applicationId: string,
): Promise<EvmAccountRow | undefined> {
  const rows = await db.query<EvmAccountRow>(
    'SELECT * FROM evm_accounts WHERE application_id = $1 AND is_default',
    [applicationId],
  );
  return rows[0];
}

export async function findAccountByAddress(
  db: Queryable,
  address: string,
): Promise<EvmAccountRow | undefined> {
  const rows = await db.query<EvmAccountRow>('SELECT * FROM evm_accounts WHERE address = $1', [
    address.toLowerCase(),
  ]);
  return rows[0];
}
