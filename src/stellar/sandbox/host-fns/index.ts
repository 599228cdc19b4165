import { addressFns } from './address.ts';
import { bufFns } from './buf.ts';
import { callFns } from './call.ts';
import { contextFns } from './context.ts';
import { cryptoFns } from './crypto.ts';
import { intFns } from './int.ts';
import { ledgerFns } from './ledger.ts';
import { mapVecFns } from './map-vec.ts';
import { prngFns } from './prng.ts';
import type { HostFnTable } from './types.ts';

/** Every implemented host function keyed by its wasm import id (`module.export`). */
export const HOST_FUNCTIONS: HostFnTable = {
  ...contextFns,
  ...intFns,
  ...mapVecFns,
  ...bufFns,
  ...ledgerFns,
  ...callFns,
  ...addressFns,
  ...cryptoFns,
  ...prngFns,
};
