import type { Platform } from '../../platform/platform.ts';
import type { StellarContext } from '../services/stellar-context.ts';

/** What the project upload use cases need: the platform, the Stellar context (to save contracts), the queue. */
export type SorobanBuildsContext = {
  platform: Platform;
  stellar: StellarContext;
  /** Wakes the build worker (a new upload), so it does not wait for its next poll. */
  kick(): void;
};

/** Limits of an uploaded project's zip, from the configured upload size. */
export function projectLimits(maxUploadBytes: number) {
  return { maxEntries: 10_000, maxUnpackedBytes: 4 * maxUploadBytes };
}
