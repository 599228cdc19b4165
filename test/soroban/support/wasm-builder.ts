import { xdr } from '@stellar/stellar-sdk';
import wabtInit from 'wabt';

export type SpecType =
  | 'u32'
  | 'i32'
  | 'u64'
  | 'i128'
  | 'u256'
  | 'bool'
  | 'symbol'
  | 'string'
  | 'address'
  | 'bytes'
  | 'vec'
  | 'map'
  | 'muxed_address'
  | 'val'
  | 'option<u32>';

export interface SpecFn {
  name: string;
  inputs: Array<[string, SpecType]>;
  output?: SpecType;
}

function typeDef(t: SpecType): xdr.ScSpecTypeDef {
  switch (t) {
    case 'u32':
      return xdr.ScSpecTypeDef.scSpecTypeU32();
    case 'i32':
      return xdr.ScSpecTypeDef.scSpecTypeI32();
    case 'bool':
      return xdr.ScSpecTypeDef.scSpecTypeBool();
    case 'symbol':
      return xdr.ScSpecTypeDef.scSpecTypeSymbol();
    case 'address':
      return xdr.ScSpecTypeDef.scSpecTypeAddress();
    case 'bytes':
      return xdr.ScSpecTypeDef.scSpecTypeBytes();
    case 'u64':
      return xdr.ScSpecTypeDef.scSpecTypeU64();
    case 'i128':
      return xdr.ScSpecTypeDef.scSpecTypeI128();
    case 'u256':
      return xdr.ScSpecTypeDef.scSpecTypeU256();
    case 'string':
      return xdr.ScSpecTypeDef.scSpecTypeString();
    case 'vec':
      return xdr.ScSpecTypeDef.scSpecTypeVec(
        new xdr.ScSpecTypeVec({ elementType: xdr.ScSpecTypeDef.scSpecTypeVal() }),
      );
    case 'map':
      return xdr.ScSpecTypeDef.scSpecTypeMap(
        new xdr.ScSpecTypeMap({
          keyType: xdr.ScSpecTypeDef.scSpecTypeSymbol(),
          valueType: xdr.ScSpecTypeDef.scSpecTypeVal(),
        }),
      );
    case 'muxed_address':
      return xdr.ScSpecTypeDef.scSpecTypeMuxedAddress();
    case 'val':
      return xdr.ScSpecTypeDef.scSpecTypeVal();
    case 'option<u32>':
      return xdr.ScSpecTypeDef.scSpecTypeOption(
        new xdr.ScSpecTypeOption({ valueType: xdr.ScSpecTypeDef.scSpecTypeU32() }),
      );
  }
}

function leb128(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** A wasm custom section (id 0): size, name, payload — appended after wabt's output. */
export function customSection(name: string, payload: Buffer): Buffer {
  const nameBytes = Buffer.from(name);
  const body = Buffer.concat([Buffer.from(leb128(nameBytes.length)), nameBytes, payload]);
  return Buffer.concat([Buffer.from([0]), Buffer.from(leb128(body.length)), body]);
}

export function specSection(fns: SpecFn[]): Buffer {
  const entries = fns.map((f) =>
    xdr.ScSpecEntry.scSpecEntryFunctionV0(
      new xdr.ScSpecFunctionV0({
        doc: '',
        name: f.name,
        inputs: f.inputs.map(
          ([name, t]) => new xdr.ScSpecFunctionInputV0({ doc: '', name, type: typeDef(t) }),
        ),
        outputs: f.output ? [typeDef(f.output)] : [],
      }),
    ).toXDR(),
  );
  return customSection('contractspecv0', Buffer.concat(entries));
}

export function envMetaSection(protocol: number): Buffer {
  const entry = xdr.ScEnvMetaEntry.scEnvMetaKindInterfaceVersion(
    new xdr.ScEnvMetaEntryInterfaceVersion({ protocol, preRelease: 0 }),
  );
  return customSection('contractenvmetav0', entry.toXDR());
}

/** Assembles WAT with wabt and appends the metadata sections soroban-sdk would emit. */
export async function buildContract(
  wat: string,
  spec: SpecFn[],
  opts: { protocol?: number; envMeta?: boolean } = {},
): Promise<Buffer> {
  const wabt = await wabtInit();
  const mod = wabt.parseWat('contract.wat', wat);
  try {
    mod.validate();
    const { buffer } = mod.toBinary({});
    const parts = [Buffer.from(buffer), specSection(spec)];
    if (opts.envMeta !== false) parts.push(envMetaSection(opts.protocol ?? 22));
    return Buffer.concat(parts);
  } finally {
    mod.destroy();
  }
}

/** SymbolSmall encoding, written independently of the sandbox so tests check it. */
export function smallSymbol(s: string): bigint {
  const chars = '_0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  if (s.length > 9) throw new Error(`symbol too long for SymbolSmall: ${s}`);
  let body = 0n;
  for (const c of s) body = (body << 6n) | BigInt(chars.indexOf(c) + 1);
  return (body << 8n) | 14n;
}
