import type { Address } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { setBounded } from '../caches/bounded.ts';
import type { Queryable } from '../db/database.ts';
import { ChaingateError } from '../errors/chaingate-error.ts';
import {
  type EvmAccountKind,
  findAccountByAddress,
  findApplicationAccount,
} from './evm-accounts.repository.ts';
import { unsealEvmAccount } from './evm-keys.ts';
import type { KeyVault } from './key-vault.ts';

/** Senders kept decrypted, unless configured; beyond it the longest kept goes (decrypted again if used). */
const MAX_CACHED_SENDERS = 10_000;

/**
 * Signing accounts of the applications, decrypted on use, keyed by (application, address): an address
 * is only ever found for the application that holds it. Senders sign on every send and are few, so
 * they stay decrypted in memory (bounded). A custodied wallet's key is decrypted for the one send its
 * owner unlocked and then dropped: there is one wallet per end user, each used now and then, and
 * keeping them all would grow the process, and the keys it holds in the clear, without bound.
 */
export class EvmSigners {
  readonly #cache = new Map<string, PrivateKeyAccount>();
  readonly #maxCached: number;

  constructor(
    private readonly db: Queryable,
    private readonly vault: KeyVault,
    options: { maxCachedSenders?: number } = {},
  ) {
    this.#maxCached = options.maxCachedSenders ?? MAX_CACHED_SENDERS;
  }

  /** The key of `address` if the application holds it as one of `kinds`; otherwise nothing is signed. */
  async forApplication(
    applicationId: string,
    address: Address,
    kinds: readonly EvmAccountKind[] = ['sender'],
  ): Promise<PrivateKeyAccount> {
    const key = `${applicationId}:${address.toLowerCase()}:${kinds.join(',')}`;
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const row = await findApplicationAccount(this.db, applicationId, address);
    if (!row || !kinds.includes(row.kind)) {
      throw new ChaingateError(
        'CG_ERR_UNKNOWN_SENDER',
        `sender ${address} is not an account of this application`,
        {
          context: { address },
        },
      );
    }
    const account = unsealEvmAccount(this.vault, row);
    if (row.kind === 'sender') {
      setBounded(this.#cache, key, account, this.#maxCached);
    }
    return account;
  }

  /** For engine-internal sends (gap fillers, fee bumps): the account, whatever application holds it. */
  async forOwner(
    address: string,
  ): Promise<{ account: PrivateKeyAccount; applicationId: string } | undefined> {
    const row = await findAccountByAddress(this.db, address);
    return row
      ? { account: unsealEvmAccount(this.vault, row), applicationId: row.application_id }
      : undefined;
  }
}
