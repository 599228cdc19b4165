import { ErrCode, ErrType, HostError, UnimplementedHostFunctionError } from './errors.ts';
import type { Host } from './host.ts';
import { HOST_FUNCTIONS } from './host-fns/index.ts';
import { HOST_FUNCTION_NAMES } from './host-fns/names.ts';
import { COST } from './instruction-costs.ts';
import { Wasm, type WasmGlobal, type WasmInstance, type WasmMemory } from './wasm-api.ts';
import { FUEL_EXPORT } from './wasm-meter.ts';
import { compileWasm } from './wasm-module.ts';

export interface ContractInstance {
  exports: Record<string, (...args: bigint[]) => unknown>;
  memory: WasmMemory | undefined;
  /** Metering counter injected by wasm-meter.ts; counts down, traps at zero. */
  fuel: WasmGlobal;
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
