import { ErrCode, ErrType, HostError } from './errors.ts';
import { Wasm, type WasmModule } from './wasm-api.ts';
import { instrumentWasm } from './wasm-meter.ts';

// Compiling is the expensive part; instances are per call frame (fresh memory each call).
const moduleCache = new Map<string, WasmModule>();
/**
 * Compiled modules kept. Every upload of a rebuilt contract is a new hash, so a devnet used for days
 * would otherwise keep every build it ever ran, compiled; beyond this the longest kept goes (compiled
 * again if it is called again). The rule of the service's caches (`src/platform/caches/bounded.ts`),
 * written out here: the sandbox imports nothing from the service, so it can run on its own.
 */
export const MAX_COMPILED_MODULES = 64;

export function compileWasm(wasmHash: Buffer, code: Buffer): WasmModule {
  const key = wasmHash.toString('hex');
  const cached = moduleCache.get(key);
  if (cached) return cached;
  try {
    const mod = new Wasm.Module(instrumentWasm(code));
    if (moduleCache.size >= MAX_COMPILED_MODULES)
      moduleCache.delete(moduleCache.keys().next().value as string);
    moduleCache.set(key, mod);
    return mod;
  } catch (e) {
    throw new HostError(ErrType.WasmVm, ErrCode.InvalidInput, `invalid wasm: ${(e as Error).message}`);
  }
}

/** How many compiled modules are kept now. */
export function compiledModuleCount(): number {
  return moduleCache.size;
}

/** Exported function names, used for the `__constructor` check on deploy. */
export function exportedFunctions(wasmHash: Buffer, code: Buffer): string[] {
  return Wasm.Module.exports(compileWasm(wasmHash, code))
    .filter((e) => e.kind === 'function')
    .map((e) => e.name);
}

/**
 * The network refuses wasm without a `contractenvmetav0` interface version, or built for a newer
 * protocol than the ledger's; soroban-sdk always emits the section.
 */
export function checkEnvMeta(wasmHash: Buffer, code: Buffer, protocolVersion: number): void {
  const sections = Wasm.Module.customSections(compileWasm(wasmHash, code), 'contractenvmetav0');
  const first = sections[0];
  if (!first || first.byteLength < 12) {
    throw new HostError(
      ErrType.WasmVm,
      ErrCode.InvalidInput,
      'contract has no contractenvmetav0 interface version',
    );
  }
  const view = new DataView(first);
  if (view.getUint32(0) !== 0) {
    throw new HostError(
      ErrType.WasmVm,
      ErrCode.InvalidInput,
      'contractenvmetav0 does not start with an interface version',
    );
  }
  const protocol = view.getUint32(4);
  if (protocol > protocolVersion) {
    throw new HostError(
      ErrType.WasmVm,
      ErrCode.InvalidInput,
      `contract targets protocol ${protocol}, ledger is at ${protocolVersion}`,
    );
  }
}
