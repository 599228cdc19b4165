import type { Platform } from '../../platform/platform.ts';
import type { TxEngine } from '../engine/tx-engine.ts';

/** What the EVM use cases run against: the platform (store, networks, keys) and the engine. */
export type EvmContext = { platform: Platform; engine: TxEngine };
