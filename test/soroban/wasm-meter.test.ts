import { describe, expect, it } from 'vitest';
import wabtInit from 'wabt';
import { FUEL_EXPORT, instrumentWasm } from '../../src/stellar/sandbox/wasm-meter.ts';

// A loop of `n` iterations plus an imported and a defined global, to check index bookkeeping.
const WAT = `
(module
  (import "env" "g" (global $imported i64))
  (global $counter (mut i32) (i32.const 0))
  (func (export "run") (param $n i32) (result i64)
    (loop $again
      (global.set $counter (i32.add (global.get $counter) (i32.const 1)))
      (br_if $again (i32.lt_u (global.get $counter) (local.get $n))))
    (i64.add (global.get $imported) (i64.extend_i32_u (global.get $counter)))))`;

interface Api {
  Module: new (b: Uint8Array) => object;
  Instance: new (m: object, i: object) => { exports: Record<string, unknown> };
  Global: new (d: { value: string; mutable: boolean }, v: bigint) => { value: bigint };
}
const Wasm = (globalThis as unknown as { WebAssembly: Api }).WebAssembly;

async function instance() {
  const wabt = await wabtInit();
  const mod = wabt.parseWat('meter.wat', WAT);
  const bin = mod.toBinary({}).buffer;
  mod.destroy();
  const instrumented = instrumentWasm(bin);
  const inst = new Wasm.Instance(new Wasm.Module(instrumented), {
    env: { g: new Wasm.Global({ value: 'i64', mutable: false }, 100n) },
  });
  return {
    run: inst.exports.run as (n: number) => bigint,
    fuel: inst.exports[FUEL_EXPORT] as { value: bigint },
  };
}

describe('soroban sandbox: wasm fuel metering', () => {
  it('keeps program behaviour and counts one unit per call and loop iteration', async () => {
    const { run, fuel } = await instance();
    fuel.value = 1000n;
    expect(run(10)).toBe(110n);
    expect(1000n - fuel.value).toBe(11n);
  });

  it('traps when the fuel runs out', async () => {
    const { run, fuel } = await instance();
    fuel.value = 5n;
    expect(() => run(10)).toThrow(/unreachable/);
    expect(fuel.value).toBe(0n);
  });
});
