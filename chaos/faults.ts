export type Fault =
  | { kind: 'crash'; afterMs: number; downMs: number }
  | { kind: 'server-only'; afterMs: number; downMs: number }
  | { kind: 'reorg'; afterMs: number; depth: number }
  | { kind: 'rollback'; afterMs: number; depth: number }
  | { kind: 'drop-mempool'; afterMs: number }
  | { kind: 'devnet-kill'; afterMs: number }
  | { kind: 'store-kill'; afterMs: number };

/** mulberry32: a small seeded generator, so a run's faults can be played again from its seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The next fault and how long to wait before it: 3–12 s apart, the service crashed a quarter of the time. */
export function faultPicker(seed: number, only?: ReadonlySet<string>): () => Fault {
  const random = seeded(seed);
  const allowed = (fault: Fault) => !only || only.has(fault.kind);
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const any = (): Fault => {
    const afterMs = between(3_000, 12_000);
    const roll = random();
    if (roll < 0.16) return { kind: 'crash', afterMs, downMs: between(0, 2_000) };
    if (roll < 0.25) return { kind: 'server-only', afterMs, downMs: between(0, 2_000) };
    if (roll < 0.4) return { kind: 'reorg', afterMs, depth: between(1, 4) };
    if (roll < 0.55) return { kind: 'rollback', afterMs, depth: between(1, 4) };
    if (roll < 0.7) return { kind: 'drop-mempool', afterMs };
    if (roll < 0.85) return { kind: 'devnet-kill', afterMs };
    return { kind: 'store-kill', afterMs };
  };
  return () => {
    for (;;) {
      const fault = any();
      if (allowed(fault)) return fault;
    }
  };
}
