import { xdr } from '@stellar/stellar-sdk';
import { describe, expect, it } from 'vitest';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { parseContractWasm, readCustomSections } from './wasm-module.ts';

/** The smallest valid module (magic, version) plus the given custom sections. */
function moduleWith(sections: Array<[string, Buffer]>): Buffer {
  const parts = [Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00])];
  for (const [name, payload] of sections) {
    const body = Buffer.concat([Buffer.from([name.length]), Buffer.from(name), payload]);
    parts.push(Buffer.from([0x00, body.length]), body);
  }
  return Buffer.concat(parts);
}

const functionEntry = xdr.ScSpecEntry.scSpecEntryFunctionV0(
  new xdr.ScSpecFunctionV0({ doc: '', name: 'hello', inputs: [], outputs: [] }),
).toXDR();

function refusal(bytes: Uint8Array): string {
  try {
    parseContractWasm(bytes);
  } catch (error) {
    if (error instanceof ChaingateError && error.code === 'CG_ERR_STELLAR_INVALID_WASM') return error.message;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseContractWasm', () => {
  it('accepts a module with a contractspecv0 section declaring a function', () => {
    const parsed = parseContractWasm(moduleWith([['contractspecv0', functionEntry]]));
    expect(parsed.entries).toHaveLength(1);
    expect(Buffer.from(parsed.specXdr, 'base64')).toEqual(functionEntry);
  });

  it('says what is wrong with anything else', () => {
    expect(refusal(Buffer.from('not wasm at all'))).toContain('magic bytes');
    expect(refusal(Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x02, 0, 0, 0]))).toContain('version');
    expect(refusal(Buffer.concat([moduleWith([]), Buffer.from([0x01, 0x7f])]))).toContain(
      'runs past the end',
    );
    expect(refusal(Buffer.concat([moduleWith([]), Buffer.from([0x0d, 0x00])]))).toContain(
      'unknown section id 13',
    );
    expect(refusal(moduleWith([]))).toContain('no contractspecv0 section');
    expect(refusal(moduleWith([['contractspecv0', Buffer.from([1, 2, 3])]]))).toContain('does not decode');
    const typeOnly = xdr.ScSpecEntry.scSpecEntryUdtEnumV0(
      new xdr.ScSpecUdtEnumV0({ doc: '', lib: '', name: 'E', cases: [] }),
    ).toXDR();
    expect(refusal(moduleWith([['contractspecv0', typeOnly]]))).toContain('declares no function');
    // Framing right, body wrong: a code section for functions that were never declared.
    expect(
      refusal(
        Buffer.concat([moduleWith([['contractspecv0', functionEntry]]), Buffer.from([0x0a, 0x01, 0x01])]),
      ),
    ).toContain('does not validate');
  });

  it('collects custom sections by name', () => {
    const sections = readCustomSections(
      moduleWith([
        ['a', Buffer.from([1])],
        ['a', Buffer.from([2])],
        ['b', Buffer.alloc(0)],
      ]),
    );
    expect(sections.get('a')?.map((part) => [...part])).toEqual([[1], [2]]);
    expect(sections.get('b')?.[0]?.length).toBe(0);
  });
});
