import { randomUUID } from 'node:crypto';
import type { Application } from '../../applications/applications.service.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { newOneTimeCode, oneTimeCodeDigest } from '../credentials/one-time-code.ts';
import { signatureCodeMail } from '../wallet-mails.ts';
import { insertEmailCode } from '../wallets.repository.ts';
import type { WalletsContext } from '../wallets-context.ts';
import { walletLocked } from './attempt-counter.ts';
import { findUserWallet } from './find-wallets.ts';
import { mailFailed } from './start-wallet-setup.ts';

/** How long an e-mailed signature code is valid (the spec's 120 seconds). */
export const SIGNATURE_CODE_VALID_MS = 120 * 1000;

/**
 * E-mails the user of a strategy-3 wallet a single-use code that signs one transaction within 120 s.
 * The code is stored only as a digest.
 */
export async function sendSignatureCode(
  context: WalletsContext,
  parameters: { application: Application; email: string },
): Promise<void> {
  const wallet = await findUserWallet(context, {
    application: parameters.application,
    userEmail: parameters.email,
    field: 'email',
  });
  if (wallet.strategy !== 3) {
    throw new ChaingateError(
      'CG_ERR_WRONG_STRATEGY',
      `email: this user's wallet uses strategy ${wallet.strategy}; e-mailed codes are for strategy 3`,
    );
  }
  const now = context.clock.now();
  const lockedUntil = wallet.locked_until?.getTime();
  if (lockedUntil !== undefined && lockedUntil > now) throw walletLocked(lockedUntil, now);
  const code = newOneTimeCode();
  // Stored first: a code whose mail then fails is never seen, so it does no harm.
  await insertEmailCode(context.platform.db, {
    id: randomUUID(),
    walletId: wallet.id,
    codeSha256: oneTimeCodeDigest(wallet.id, code),
    expiresAt: new Date(now + SIGNATURE_CODE_VALID_MS),
    createdAt: new Date(now),
  });
  try {
    await context.mailer.send(signatureCodeMail(wallet.user_email, code, SIGNATURE_CODE_VALID_MS / 1000));
  } catch (error) {
    throw mailFailed(error);
  }
}
