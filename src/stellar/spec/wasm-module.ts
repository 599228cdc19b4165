import { cereal, xdr } from '@stellar/stellar-sdk';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';

// No DOM lib and no WebAssembly JS API in @types/node: the one function used here, typed.
const wasmApi = (globalThis as unknown as { WebAssembly: { validate(bytes: Uint8Array): boolean } })
  .WebAssembly;

/** Soroban's limit is 128 KiB on the public networks today; room is left for a raise. */
export const MAX_WASM_BYTES = 256 * 1024;

const MAGIC = [0x00, 0x61, 0x73, 0x6d];

function invalid(message: string): ChaingateError {
  return new ChaingateError('CG_ERR_STELLAR_INVALID_WASM', `file: ${message}`);
}

/** Reads an unsigned LEB128 (at most 32 bits) at `offset`; undefined when it runs past the end. */
function readU32Leb(bytes: Uint8Array, offset: number): { value: number; next: number } | undefined {
  let value = 0;
  for (let shift = 0, at = offset; shift < 35; shift += 7, at++) {
    const byte = bytes[at];
    if (byte === undefined) return undefined;
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return value > 0xffffffff ? undefined : { value, next: at + 1 };
  }
  return undefined;
}

/**
 * Checks the module's framing (magic, version, every section's id and length) and returns its custom
 * sections by name. Each problem names what is wrong, for the 400.
 */
export function readCustomSections(bytes: Uint8Array): Map<string, Uint8Array[]> {
  if (bytes.length < 8 || MAGIC.some((byte, index) => bytes[index] !== byte))
    throw invalid('not a WebAssembly module (the magic bytes \\0asm are missing)');
  if (bytes[4] !== 1 || bytes[5] !== 0 || bytes[6] !== 0 || bytes[7] !== 0)
    throw invalid('unsupported WebAssembly version (expected 1)');
  const custom = new Map<string, Uint8Array[]>();
  let offset = 8;
  while (offset < bytes.length) {
    const id = bytes[offset] as number;
    if (id > 12) throw invalid(`unknown section id ${id} at byte ${offset}`);
    const size = readU32Leb(bytes, offset + 1);
    if (!size || size.next + size.value > bytes.length)
      throw invalid(`section ${id} at byte ${offset} runs past the end of the file`);
    const body = bytes.subarray(size.next, size.next + size.value);
    if (id === 0) {
      const nameLength = readU32Leb(body, 0);
      if (!nameLength || nameLength.next + nameLength.value > body.length)
        throw invalid(`custom section at byte ${offset} has a malformed name`);
      const name = Buffer.from(body.subarray(nameLength.next, nameLength.next + nameLength.value)).toString(
        'utf8',
      );
      custom.set(name, [...(custom.get(name) ?? []), body.subarray(nameLength.next + nameLength.value)]);
    }
    offset = size.next + size.value;
  }
  return custom;
}

/** Decodes a stream of ScSpecEntry XDR (the contractspecv0 section's payload), as the SDK's Spec does. */
export function decodeSpecEntries(payload: Uint8Array): xdr.ScSpecEntry[] {
  const reader = new cereal.XdrReader(Buffer.from(payload));
  const entries: xdr.ScSpecEntry[] = [];
  // js-xdr types declare no static `read`; every generated type has one.
  const entryType = xdr.ScSpecEntry as unknown as { read(reader: cereal.XdrReader): xdr.ScSpecEntry };
  while (!reader.eof) entries.push(entryType.read(reader));
  return entries;
}

export type ContractWasm = { entries: xdr.ScSpecEntry[]; specXdr: string };

/**
 * Validates an uploaded contract: framing, `WebAssembly.validate`, and a `contractspecv0` section that
 * decodes and declares at least one function.
 */
export function parseContractWasm(bytes: Uint8Array): ContractWasm {
  if (bytes.length > MAX_WASM_BYTES) throw invalid(`larger than ${MAX_WASM_BYTES} bytes`);
  const custom = readCustomSections(bytes);
  if (!wasmApi.validate(bytes)) throw invalid('the WebAssembly module does not validate');
  const spec = custom.get('contractspecv0');
  if (!spec || spec.length === 0)
    throw invalid('no contractspecv0 section: build the contract with soroban-sdk');
  const payload = Buffer.concat(spec.map((part) => Buffer.from(part)));
  let entries: xdr.ScSpecEntry[];
  try {
    entries = decodeSpecEntries(payload);
  } catch {
    throw invalid('the contractspecv0 section does not decode as ScSpecEntry XDR');
  }
  if (!entries.some((entry) => entry.switch().name === 'scSpecEntryFunctionV0'))
    throw invalid('the contractspecv0 section declares no function');
  return { entries, specXdr: payload.toString('base64') };
}
