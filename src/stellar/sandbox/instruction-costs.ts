/** Network-wide per-transaction CPU cap; beyond it execution stops with a budget error. */
export const MAX_TX_INSTRUCTIONS = 100_000_000;

// Flat per-operation instruction charges: CPU is modelled from host work, not wasm opcodes.
export const COST = {
  /** Per fuel unit (function entry or loop iteration) counted by the injected wasm meter. */
  perFuel: 40,
  hostCall: 1_000,
  vmInstantiateBase: 400_000,
  vmInstantiatePerByte: 50,
  perByteCopied: 2,
} as const;
