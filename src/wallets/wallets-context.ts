import type { EvmContext } from '../evm/services/evm-context.ts';
import type { Mailer } from '../platform/mail/mailer.ts';
import type { Platform } from '../platform/platform.ts';
import type { WalletClock } from './clock.ts';

/** What the wallet use cases run against. */
export type WalletsContext = {
  platform: Platform;
  /** The EVM sending path: custodied sends go through it like every other transaction. */
  evm: EvmContext;
  mailer: Mailer;
  clock: WalletClock;
  /** `{wallet_url}`: the wallet page, where the customer sends its users. */
  walletUrl: string;
  hashTtlMs: number;
  /** Wakes the callback worker once a new delivery is stored. */
  callbacksDue(): void;
};

declare module 'fastify' {
  interface FastifyInstance {
    wallets: WalletsContext;
  }
}
