import { Networks } from '@stellar/stellar-sdk';

/**
 * Network-wide settings a validator would read from its ConfigSetting entries. Defaults are small
 * on purpose: a sandbox is for tests, and tests need entries to expire within a few ledgers.
 */
export interface NetworkConfig {
  passphrase: string;
  protocolVersion: number;
  /** Base fee per operation in stroops (inclusion fee when the network is not congested). */
  baseFee: number;
  /** Stroops; an account must hold (2 + subentries) * baseReserve. */
  baseReserve: number;
  /** TTL (ledgers, including the current one) given to new persistent entries and restored ones. */
  minPersistentTtl: number;
  /** TTL given to new temporary entries. */
  minTemporaryTtl: number;
  /** No entry may live beyond currentLedger + maxEntryTtl - 1. */
  maxEntryTtl: number;
  /** Friendbot starting balance in stroops. */
  friendbotStartingBalance: bigint;
  fees: FeeRates;
}

/** Deterministic resource prices (stroops). See fees.ts for how they combine. */
export interface FeeRates {
  per10kInstructions: number;
  perReadEntry: number;
  perWriteEntry: number;
  perKbRead: number;
  perKbWrite: number;
  perKbEvents: number;
  /** Rent per KB of entry per ledger of extended lifetime, in thousandths of a stroop. */
  rentPerKbLedgerMilli: number;
}

export const DEFAULT_NETWORK_CONFIG: NetworkConfig = {
  passphrase: Networks.STANDALONE,
  protocolVersion: 23,
  baseFee: 100,
  baseReserve: 5_000_000,
  minPersistentTtl: 4096,
  minTemporaryTtl: 16,
  maxEntryTtl: 535_680,
  friendbotStartingBalance: 10_000n * 10_000_000n,
  fees: {
    per10kInstructions: 25,
    perReadEntry: 6250,
    perWriteEntry: 10_000,
    perKbRead: 1786,
    perKbWrite: 11_800,
    perKbEvents: 10_000,
    rentPerKbLedgerMilli: 1000,
  },
};

export function resolveNetworkConfig(overrides: Partial<NetworkConfig> | undefined): NetworkConfig {
  return {
    ...DEFAULT_NETWORK_CONFIG,
    ...overrides,
    fees: { ...DEFAULT_NETWORK_CONFIG.fees, ...overrides?.fees },
  };
}
