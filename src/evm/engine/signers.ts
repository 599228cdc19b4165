import type { Address } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { unsealAccount } from '../../applications/applications.service.ts';
import type { EvmAccountKind } from '../../applications/evm-accounts.repository.ts';
import { findApplicationAccount } from '../../applications/evm-accounts.repository.ts';
import { ForbiddenError } from '../../platform/http/gateway-error.ts';
import type { Platform } from '../../platform/platform.ts';

/**
 * Signing accounts of the applications, decrypted on first use and kept in memory keyed by
 * (application, address): an address is only ever found for the application that holds it.
 */
export class Signers {
  readonly #cache = new Map<string, PrivateKeyAccount>();

  constructor(private readonly platform: Pick<Platform, 'db' | 'vault'>) {}

  async forApplication(
    applicationId: string,
    address: Address,
    kinds: readonly EvmAccountKind[] = ['sender'],
  ): Promise<PrivateKeyAccount> {
    const key = `${applicationId}:${address.toLowerCase()}:${kinds.join(',')}`;
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const row = await findApplicationAccount(this.platform.db, applicationId, address);
    if (!row || !kinds.includes(row.kind)) {
      throw new ForbiddenError(
        `sender ${address} is not an account of this application`,
        'CG_ERR_UNKNOWN_SENDER',
      );
    }
    const account = unsealAccount(this.platform, row);
    this.#cache.set(key, account);
    return account;
  }

  /** For engine-internal sends (gap fillers): the account whatever application holds it. */
  async forOwner(
    address: string,
  ): Promise<{ account: PrivateKeyAccount; applicationId: string } | undefined> {
    const rows = await this.platform.db.query<{ application_id: string }>(
      'SELECT application_id FROM evm_accounts WHERE address = $1',
      [address.toLowerCase()],
    );
    const applicationId = rows[0]?.application_id;
    if (!applicationId) return undefined;
    const row = await findApplicationAccount(this.platform.db, applicationId, address);
    return row ? { account: unsealAccount(this.platform, row), applicationId } : undefined;
  }
}
