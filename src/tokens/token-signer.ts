import type { Address } from 'viem';
import type { Application } from '../applications/applications.service.ts';
import { checksumAddress } from '../evm/services/encode-contract-call.ts';
import { setBounded } from '../platform/caches/bounded.ts';
import { findApplicationAccount, findDefaultSender } from '../platform/custody/evm-accounts.repository.ts';
import { ChaingateError } from '../platform/errors/chaingate-error.ts';
import type { Platform } from '../platform/platform.ts';

// An application's default sender is fixed when the application is created: learnt once (bounded).
const MAX_CACHED = 10_000;
const defaults = new Map<string, Address>();

/**
 * The account a token endpoint signs with: the given `field` when present, which must be one of the
 * application's senders (checked before anything is read on chain, so a stranger gets 403, not a
 * misleading 400), else the application's default sender.
 */
export async function tokenSigner(
  platform: Platform,
  application: Application,
  given: string | undefined,
  field = 'sender',
): Promise<Address> {
  if (given !== undefined) {
    const address = checksumAddress(given, field);
    const row = await findApplicationAccount(platform.db, application.id, address);
    if (row?.kind !== 'sender') {
      throw new ChaingateError(
        'CG_ERR_UNKNOWN_SENDER',
        `${field} ${address} is not a sender of this application`,
        { context: { address } },
      );
    }
    return address;
  }
  const cached = defaults.get(application.id);
  if (cached) return cached;
  const row = await findDefaultSender(platform.db, application.id);
  if (!row) {
    throw new ChaingateError(
      'CG_ERR_BAD_REQUEST',
      `the application has no default sender: pass ${field} (one of its senders)`,
    );
  }
  const address = checksumAddress(row.address, 'sender');
  setBounded(defaults, application.id, address, MAX_CACHED);
  return address;
}
