import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { compiledModuleCount, compileWasm, MAX_COMPILED_MODULES } from './wasm-module.ts';

// The smallest valid module: the magic number and version 1.
const EMPTY_MODULE = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
const hashOf = (index: number) => createHash('sha256').update(`build ${index}`).digest();

it('keeps at most MAX_COMPILED_MODULES compiled, dropping the least recently used', () => {
  const first = compileWasm(hashOf(0), EMPTY_MODULE);
  const second = compileWasm(hashOf(1), EMPTY_MODULE);
  for (let index = 2; index < MAX_COMPILED_MODULES + 10; index++) {
    compileWasm(hashOf(index), EMPTY_MODULE);
    // Used all along: never the least recently used.
    expect(compileWasm(hashOf(0), EMPTY_MODULE)).toBe(first);
  }
  expect(compiledModuleCount()).toBe(MAX_COMPILED_MODULES);
  // The second build was the least recently used long ago: compiled anew, and kept again.
  const recompiled = compileWasm(hashOf(1), EMPTY_MODULE);
  expect(recompiled).not.toBe(second);
  expect(compileWasm(hashOf(1), EMPTY_MODULE)).toBe(recompiled);
  expect(compiledModuleCount()).toBe(MAX_COMPILED_MODULES);
});
