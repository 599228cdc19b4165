import { ErrCode, ErrType, HostError, UnimplementedHostFunctionError } from './errors.ts';
import type { Host } from './host.ts';
import { COST } from './host.ts';
import { HOST_FUNCTIONS } from './host-fns/index.ts';
import { HOST_FUNCTION_NAMES } from './host-fns/names.ts';
import { Wasm, type WasmGlobal, type WasmInstance, type WasmMemory, type WasmModule } from './wasm-api.ts';
import { FUEL_EXPORT, instrumentWasm } from './wasm-meter.ts';

export interface ContractInstance {
  exports: Record<string, (...args: bigint[]) => unknown>;
  memory: WasmMemory | undefined;
  /** Metering counter injected by wasm-meter.ts; counts down, traps at zero. */
  fuel: WasmGlobal;
}

// Compiling is the expensive part; instances are per call frame (fresh memory each call).
const moduleCache = new Map<string, WasmModule>();

export function compileWasm(wasmHash: Buffer, code: Buffer): WasmModule {
  const key = wasmHash.toString('hex');
  const cached = moduleCache.get(key);
  if (cached) return cached;
  try {
    const mod = new Wasm.Module(instrumentWasm(code));
    moduleCache.set(key, mod);
    return mod;
  } catch (e) {
    throw new HostError(ErrType.WasmVm, ErrCode.InvalidInput, `invalid wasm: ${(e as Error).message}`);
  }
}

/**
 * Builds the import object from the module's own import list, so every import resolves either to
 * a host function implementation or to a stub that traps naming the missing function.
 */
export function instantiateContract(host: Host, wasmHash: Buffer, code: Buffer): ContractInstance {
  const mod = compileWasm(wasmHash, code);
  const imports: Record<string, Record<string, unknown>> = {};
  for (const imp of Wasm.Module.imports(mod)) {
    if (imp.kind !== 'function') {
      throw new HostError(
        ErrType.WasmVm,
        ErrCode.InvalidInput,
        `unsupported import ${imp.module}.${imp.name}`,
      );
    }
    const id = `${imp.module}.${imp.name}`;
    const impl = HOST_FUNCTIONS[id];
    const ns = imports[imp.module] ?? {};
    imports[imp.module] = ns;
    ns[imp.name] = impl
      ? (...args: bigint[]) => {
          host.charge(COST.hostCall);
          const r = impl(
            host,
            args.map((a) => BigInt.asUintN(64, a)),
          );
          return BigInt.asIntN(64, r);
        }
      : () => {
          throw new UnimplementedHostFunctionError(imp.module, imp.name, HOST_FUNCTION_NAMES[id]);
        };
  }
  let instance: WasmInstance;
  try {
    instance = new Wasm.Instance(mod, imports);
  } catch (e) {
    if (e instanceof HostError) throw e;
    throw new HostError(
      ErrType.WasmVm,
      ErrCode.InvalidAction,
      `instantiation failed: ${(e as Error).message}`,
    );
  }
  const mem = instance.exports.memory;
  const fuel = instance.exports[FUEL_EXPORT];
  if (!(fuel instanceof Wasm.Global))
    throw new HostError(ErrType.WasmVm, ErrCode.InternalError, 'metering missing');
  return {
    exports: instance.exports as unknown as ContractInstance['exports'],
    memory: mem instanceof Wasm.Memory ? mem : undefined,
    fuel,
  };
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
