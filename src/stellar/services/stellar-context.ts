import type { Platform } from '../../platform/platform.ts';
import type { StellarEngine } from '../engine/stellar-engine.ts';

/** What the Stellar use cases need: the platform (store, vault, networks) and the transaction engine. */
export type StellarContext = { platform: Platform; engine: StellarEngine };
