import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { compiledModuleCount, compileWasm, MAX_COMPILED_MODULES } from './wasm-module.ts';

// The smallest valid module: the magic number and version 1.
const EMPTY_MODULE = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
const hashOf = (index: number) => createHash('sha256').update(`build ${index}`).digest();

it('keeps at most MAX_COMPILED_MODULES compiled, dropping the longest kept', () => {
  const first = compileWasm(hashOf(0), EMPTY_MODULE);
  for (let index = 1; index <= MAX_COMPILED_MODULES; index++) compileWasm(hashOf(index), EMPTY_MODULE);
  expect(compiledModuleCount()).toBe(MAX_COMPILED_MODULES);
  const newest = hashOf(MAX_COMPILED_MODULES);
  expect(compileWasm(newest, EMPTY_MODULE)).toBe(compileWasm(newest, EMPTY_MODULE));
  // The first build went when the limit was passed: compiled anew, and kept again.
  const recompiled = compileWasm(hashOf(0), EMPTY_MODULE);
  expect(recompiled).not.toBe(first);
  expect(compileWasm(hashOf(0), EMPTY_MODULE)).toBe(recompiled);
  expect(compiledModuleCount()).toBe(MAX_COMPILED_MODULES);
});
