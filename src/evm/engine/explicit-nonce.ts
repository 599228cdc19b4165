import type { Queryable } from '../../platform/db/database.ts';
import { badNonce } from './engine-errors.ts';
import { findLiveNonceHolder, takeGap, takeNextNonceIf } from './nonces.repository.ts';
import { markReplaced } from './transactions.repository.ts';

/**
 * Takes a send's explicit nonce inside the caller's transaction: it replaces (accelerates or cancels)
 * the pending transaction holding it, fills a gap, or is the sender's next nonce; anything else is a 400.
 */
export async function takeExplicitNonce(
  tx: Queryable,
  chainId: number,
  sender: string,
  nonce: bigint,
): Promise<void> {
  const holder = await findLiveNonceHolder(tx, chainId, sender, nonce);
  if (holder) {
    if (holder.state !== 'signed' && holder.state !== 'inserted') {
      throw badNonce(`nonce ${nonce} of ${sender} is already mined`);
    }
    await markReplaced(tx, holder.id, 'ERROR_REPLACED');
    return;
  }
  if (await takeGap(tx, chainId, sender, nonce)) return;
  const next = await takeNextNonceIf(tx, chainId, sender, nonce);
  if (next === nonce) return;
  throw badNonce(
    `nonce ${nonce} is neither a pending transaction of ${sender} nor its next nonce (${next ?? 'unknown'})`,
  );
}
