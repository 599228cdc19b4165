import { randomUUID, timingSafeEqual } from 'node:crypto';
import { type Address, getAddress } from 'viem';
import { createEvmKey } from '../../platform/custody/evm-keys.ts';
import { isUniqueViolation } from '../../platform/db/database.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { fundOnDevnets } from '../../platform/networks/devnet-faucet.ts';
import { insertDelivery } from '../callbacks/callbacks.repository.ts';
import { DELIVERY_WINDOW_MS } from '../callbacks/retry-schedule.ts';
import { oneTimeCodeDigest } from '../credentials/one-time-code.ts';
import { hashPin, PIN_PATTERN } from '../credentials/pin-hash.ts';
import { setupTotpSealContext, totpStepOf, walletTotpSealContext } from '../credentials/totp.ts';
import { insertWallet, type Strategy, spendWalletHash, type WalletHashRow } from '../wallets.repository.ts';
import type { WalletsContext } from '../wallets-context.ts';
import { clearAttempts, reserveAttempt } from './attempt-counter.ts';
import {
  ensureStrategyAllowed,
  findWalletHashFor,
  openWalletHash,
  walletHashState,
} from './open-wallet-hash.ts';

export type ConfirmWalletSetupParameters = {
  hash: string;
  username: string;
  strategy: Strategy;
  /** Strategy 1: the PIN the user chose; 2: the authenticator's current code; 3: the e-mailed code. */
  pin: string;
};

export type ConfirmWalletSetupReturnType = { accountAddress: Address };

function invalidCode(): ChaingateError {
  return new ChaingateError('CG_ERR_INVALID_PIN', 'pin: the code is wrong or has expired');
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Checks the code of strategy 2 or 3 against the secret pending on the hash; wrong codes are counted. */
async function verifySetupCode(
  context: WalletsContext,
  row: WalletHashRow,
  strategy: 2 | 3,
  pin: string,
): Promise<{ totpSecret?: Buffer; totpStep?: bigint }> {
  const { db, vault } = context.platform;
  if (row.setup_strategy !== strategy) {
    throw new ChaingateError(
      'CG_ERR_SETUP_NOT_STARTED',
      `strategy: call /wallet/api/setup with strategy ${strategy} before confirming it`,
    );
  }
  const now = context.clock.now();
  await reserveAttempt(db, 'wallet_hashes', row.id, now);
  if (strategy === 2) {
    const secret = vault.open(
      {
        keyId: row.setup_totp_key_id as string,
        nonce: Buffer.from(row.setup_totp_nonce as Uint8Array),
        ciphertext: Buffer.from(row.setup_totp_ciphertext as Uint8Array),
      },
      setupTotpSealContext(row.id),
    );
    const step = totpStepOf(secret, pin, now);
    if (step === undefined) {
      secret.fill(0);
      throw invalidCode();
    }
    await clearAttempts(db, 'wallet_hashes', row.id);
    return { totpSecret: secret, totpStep: step };
  }
  const valid =
    row.setup_code_sha256 !== null &&
    (row.setup_code_expires_at?.getTime() ?? 0) > now &&
    sameText(row.setup_code_sha256, oneTimeCodeDigest(row.id, pin));
  if (!valid) throw invalidCode();
  await clearAttempts(db, 'wallet_hashes', row.id);
  return {};
}

/**
 * The page's last step: checks the PIN or code, then in one transaction spends the hash, generates and
 * seals the wallet's key, stores the wallet and queues the signed callback. A wrong code leaves the
 * hash usable (until 5 in a row lock it for 15 minutes).
 */
export async function confirmWalletSetup(
  context: WalletsContext,
  parameters: ConfirmWalletSetupParameters,
): Promise<ConfirmWalletSetupReturnType> {
  const { platform } = context;
  const row = await openWalletHash(context, parameters.hash, parameters.username);
  ensureStrategyAllowed(row, parameters.strategy);
  let pinHash: string | null = null;
  let totp: { totpSecret?: Buffer; totpStep?: bigint } = {};
  if (parameters.strategy === 1) {
    if (!PIN_PATTERN.test(parameters.pin))
      throw new ChaingateError('CG_ERR_VALIDATION', 'pin: a PIN is 4 to 12 digits', {
        context: { field: 'pin' },
      });
    pinHash = await hashPin(parameters.pin);
  } else {
    totp = await verifySetupCode(context, row, parameters.strategy, parameters.pin);
  }

  const walletId = randomUUID();
  const now = context.clock.now();
  let accountAddress: Address | undefined;
  try {
    accountAddress = await platform.db.transaction(async (tx) => {
      if (!(await spendWalletHash(tx, row.id, new Date(now)))) return undefined;
      const address = await createEvmKey(platform.vault, tx, {
        applicationId: row.application_id,
        kind: 'custodied',
        isDefault: false,
      });
      await insertWallet(tx, {
        id: walletId,
        applicationId: row.application_id,
        userEmail: row.username,
        address,
        strategy: parameters.strategy,
        pinHash,
        totp: totp.totpSecret ? platform.vault.seal(totp.totpSecret, walletTotpSealContext(walletId)) : null,
        totpLastStep: totp.totpStep ?? null,
        hashId: row.id,
        createdAt: new Date(now),
      });
      await insertDelivery(tx, {
        id: randomUUID(),
        applicationId: row.application_id,
        walletId,
        url: row.callback_url,
        body: JSON.stringify({
          hash: parameters.hash,
          username: row.username,
          accountAddress: getAddress(address),
          strategy: parameters.strategy,
          creationTimestamp: now,
        }),
        createdAt: new Date(now),
        giveUpAt: new Date(now + DELIVERY_WINDOW_MS),
      });
      return getAddress(address);
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ChaingateError('CG_ERR_WALLET_EXISTS', 'username: this user already has a wallet', {
        cause: error,
      });
    throw error;
  } finally {
    totp.totpSecret?.fill(0);
  }
  if (accountAddress === undefined) {
    // Spent or expired between the check above and the transaction: say which.
    const again = await findWalletHashFor(context, parameters.hash, parameters.username);
    if (walletHashState(again, context.clock.now()) === 'used')
      throw new ChaingateError('CG_ERR_HASH_USED', 'hash: this wallet link was already used');
    throw new ChaingateError('CG_ERR_HASH_EXPIRED', 'hash: this wallet link has expired');
  }
  await fundOnDevnets(platform.evm, platform.logger, accountAddress);
  context.callbacksDue();
  return { accountAddress };
}
