import { findApplicationById } from '../../applications/applications.repository.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { MailError } from '../../platform/mail/mailer.ts';
import { newOneTimeCode, oneTimeCodeDigest } from '../credentials/one-time-code.ts';
import { newTotpSecret, setupTotpSealContext } from '../credentials/totp.ts';
import { qrCodeSvg } from '../qr-svg.ts';
import { walletSetupCodeMail } from '../wallet-mails.ts';
import { findWalletByEmail, recordSetup, type Strategy, type WalletHashRow } from '../wallets.repository.ts';
import type { WalletsContext } from '../wallets-context.ts';
import { ensureStrategyAllowed, openWalletHash } from './open-wallet-hash.ts';

/** How long the code e-mailed on the page is valid. */
export const SETUP_CODE_VALID_MS = 10 * 60 * 1000;
/** The page can ask for another code after this long (a user's mailbox is not a free target). */
export const SETUP_CODE_RESEND_MS = 30 * 1000;

export type StartWalletSetupParameters = { hash: string; username: string; strategy: Strategy };

export type StartWalletSetupReturnType = {
  /** Strategy 2: the authenticator app's URI, its secret in base32, and the URI as a QR code (SVG). */
  otpauthUri?: string;
  secret?: string;
  qrSvg?: string;
};

export function mailFailed(error: unknown): ChaingateError {
  return new ChaingateError('CG_ERR_MAIL_FAILED', 'the e-mail could not be sent; retry shortly', {
    cause: error,
    details: error instanceof MailError ? error.message : undefined,
  });
}

async function startAuthenticator(
  context: WalletsContext,
  row: WalletHashRow,
): Promise<StartWalletSetupReturnType> {
  const application = await findApplicationById(context.platform.db, row.application_id);
  const totp = newTotpSecret(application?.name ?? 'chaingate', row.username);
  const sealed = context.platform.vault.seal(totp.secret, setupTotpSealContext(row.id));
  totp.secret.fill(0);
  await recordSetup(context.platform.db, row.id, { strategy: 2, totp: sealed });
  return {
    otpauthUri: totp.otpauthUri,
    secret: totp.base32,
    qrSvg: qrCodeSvg(totp.otpauthUri, 'QR code to add this wallet to your authenticator app'),
  };
}

async function startEmailCode(
  context: WalletsContext,
  row: WalletHashRow,
): Promise<StartWalletSetupReturnType> {
  const now = context.clock.now();
  const lastSent = row.setup_strategy === 3 ? row.setup_code_sent_at?.getTime() : undefined;
  if (lastSent !== undefined && now - lastSent < SETUP_CODE_RESEND_MS) {
    const retryAfterSeconds = Math.ceil((lastSent + SETUP_CODE_RESEND_MS - now) / 1000);
    throw new ChaingateError(
      'CG_ERR_CODE_RECENTLY_SENT',
      `a code was sent moments ago; another can be sent in ${retryAfterSeconds} s`,
      { context: { retryAfterSeconds } },
    );
  }
  const code = newOneTimeCode();
  try {
    await context.mailer.send(walletSetupCodeMail(row.username, code, SETUP_CODE_VALID_MS / 60_000));
  } catch (error) {
    throw mailFailed(error);
  }
  await recordSetup(context.platform.db, row.id, {
    strategy: 3,
    code: {
      sha256: oneTimeCodeDigest(row.id, code),
      expiresAt: new Date(now + SETUP_CODE_VALID_MS),
      sentAt: new Date(now),
    },
  });
  return {};
}

/**
 * The page's first step for a strategy: nothing for a PIN (chosen at confirm), a fresh TOTP secret for
 * an authenticator app, a code e-mailed to the user. Calling it again starts that step over.
 */
export async function startWalletSetup(
  context: WalletsContext,
  parameters: StartWalletSetupParameters,
): Promise<StartWalletSetupReturnType> {
  const row = await openWalletHash(context, parameters.hash, parameters.username);
  ensureStrategyAllowed(row, parameters.strategy);
  if (await findWalletByEmail(context.platform.db, row.application_id, row.username))
    throw new ChaingateError('CG_ERR_WALLET_EXISTS', 'username: this user already has a wallet');
  if (parameters.strategy === 2) return startAuthenticator(context, row);
  if (parameters.strategy === 3) return startEmailCode(context, row);
  await recordSetup(context.platform.db, row.id, { strategy: 1 });
  return {};
}
