import { join } from 'node:path';
import type { EvmContext } from '../evm/services/evm-context.ts';
import { createMailer } from '../platform/mail/mailer.ts';
import type { Platform } from '../platform/platform.ts';
import { CallbackWorker } from './callbacks/callback-worker.ts';
import { WalletClock } from './clock.ts';
import type { WalletsContext } from './wallets-context.ts';

export type RunningWallets = { context: WalletsContext; stop(): Promise<void> };

/**
 * The wallets domain's moving parts: the mailer (SMTP, or the outbox in the data dir) and the callback
 * worker, which picks up whatever deliveries the store still holds from before a restart.
 */
export function startWallets(platform: Platform, evm: EvmContext, serverUrl: string): RunningWallets {
  const { config } = platform;
  const clock = new WalletClock();
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.wallets.mailFrom,
    outboxDir: join(config.dataDir, 'outbox'),
    logger: platform.logger,
  });
  const worker = new CallbackWorker(platform, clock);
  const context: WalletsContext = {
    platform,
    evm,
    mailer,
    clock,
    walletUrl: `${(config.publicBaseUrl ?? serverUrl).replace(/\/+$/, '')}/wallet`,
    hashTtlMs: config.wallets.hashTtlSeconds * 1000,
    callbacksDue: () => worker.wake(),
  };
  worker.start();
  return {
    context,
    stop: async () => {
      await worker.stop();
      mailer.close();
    },
  };
}
