// The project's tsconfig has no DOM lib, and @types/node does not declare the WebAssembly JS API,
// so we type the small part of it we use and read it from globalThis.

export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

export interface WasmGlobal {
  value: unknown;
}

export interface WasmModule {
  readonly __wasmModule?: never;
}

export interface WasmInstance {
  readonly exports: Record<string, unknown>;
}

export interface WasmModuleDescriptor {
  module: string;
  name: string;
  kind: 'function' | 'table' | 'memory' | 'global';
}

interface WasmApi {
  Module: {
    new (bytes: Uint8Array): WasmModule;
    imports(m: WasmModule): WasmModuleDescriptor[];
    exports(m: WasmModule): Array<{ name: string; kind: WasmModuleDescriptor['kind'] }>;
    customSections(m: WasmModule, name: string): ArrayBuffer[];
  };
  Instance: new (m: WasmModule, imports: Record<string, Record<string, unknown>>) => WasmInstance;
  Memory: abstract new (...args: never[]) => WasmMemory;
  Global: abstract new (...args: never[]) => WasmGlobal;
  RuntimeError: new (...args: never[]) => Error;
}

export const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
