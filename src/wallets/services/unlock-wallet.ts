import type { Application } from '../../applications/applications.service.ts';
import { checksumAddress } from '../../evm/services/encode-contract-call.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { oneTimeCodeDigest } from '../credentials/one-time-code.ts';
import { PIN_PATTERN, verifyPin } from '../credentials/pin-hash.ts';
import { totpStepOf, walletTotpSealContext } from '../credentials/totp.ts';
import {
  consumeEmailCode,
  consumeTotpStep,
  findWalletByAddress,
  type WalletRow,
} from '../wallets.repository.ts';
import type { WalletsContext } from '../wallets-context.ts';
import { clearAttempts, reserveAttempt } from './attempt-counter.ts';

export type UnlockWalletParameters = {
  application: Application;
  /** The wallet's address (the `sender` of a custodied send). */
  address: string;
  strategy: number;
  /** Strategy 1: the PIN; 2: the authenticator's current code; 3: a code from the signature OTP endpoint. */
  pin: string;
};

/** The calling application's wallet at `address`; another application's wallet is a 404 like no wallet. */
export async function findApplicationWallet(
  context: WalletsContext,
  application: Application,
  address: string,
  field = 'sender',
): Promise<WalletRow> {
  const checksummed = checksumAddress(address, field);
  const wallet = await findWalletByAddress(context.platform.db, application.id, checksummed);
  if (!wallet) {
    throw new ChaingateError(
      'CG_ERR_UNKNOWN_WALLET',
      `${field}: ${checksummed} is not a custodied wallet of this application`,
    );
  }
  return wallet;
}

export function ensureWalletStrategy(wallet: WalletRow, strategy: number): void {
  if (strategy !== wallet.strategy) {
    throw new ChaingateError(
      'CG_ERR_WRONG_STRATEGY',
      `strategy: this wallet uses strategy ${wallet.strategy}, not ${strategy}`,
    );
  }
}

async function checkSecret(
  context: WalletsContext,
  wallet: WalletRow,
  pin: string,
  nowMs: number,
): Promise<boolean> {
  const { db, vault } = context.platform;
  if (wallet.strategy === 1) return PIN_PATTERN.test(pin) && verifyPin(pin, wallet.pin_hash as string);
  if (wallet.strategy === 2) {
    const secret = vault.open(
      {
        keyId: wallet.totp_key_id as string,
        nonce: Buffer.from(wallet.totp_nonce as Uint8Array),
        ciphertext: Buffer.from(wallet.totp_ciphertext as Uint8Array),
      },
      walletTotpSealContext(wallet.id),
    );
    const step = totpStepOf(secret, pin, nowMs);
    secret.fill(0);
    // Each time step is accepted once: a code already used answers 401 even within its 30 seconds.
    return step !== undefined && consumeTotpStep(db, wallet.id, step);
  }
  return (
    /^\d{6}$/.test(pin) && consumeEmailCode(db, wallet.id, oneTimeCodeDigest(wallet.id, pin), new Date(nowMs))
  );
}

/**
 * The check before a custodied send: the wallet is the application's (404), the strategy is its own
 * (400), it is not locked (429), and the PIN or code is right and unused (401, counted).
 */
export async function unlockWallet(
  context: WalletsContext,
  parameters: UnlockWalletParameters,
): Promise<WalletRow> {
  const wallet = await findApplicationWallet(context, parameters.application, parameters.address);
  ensureWalletStrategy(wallet, parameters.strategy);
  const now = context.clock.now();
  await reserveAttempt(context.platform.db, 'custodied_wallets', wallet.id, now);
  if (!(await checkSecret(context, wallet, parameters.pin, now)))
    throw new ChaingateError('CG_ERR_INVALID_PIN', 'pin: wrong, expired or already used');
  await clearAttempts(context.platform.db, 'custodied_wallets', wallet.id);
  return wallet;
}
