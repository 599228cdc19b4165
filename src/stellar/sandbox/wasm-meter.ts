import { ErrCode, ErrType, HostError } from './errors.ts';

/**
 * Fuel metering by bytecode rewriting. Node's WebAssembly has no instruction budget, so a contract
 * stuck in a loop would freeze the whole sandbox. We add one mutable i64 global (exported as
 * FUEL_EXPORT) and, at every function entry and loop header, a decrement that traps once it hits
 * zero. Everything else in the module is copied byte for byte.
 */
export const FUEL_EXPORT = '__sandbox_fuel';

class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}

  byte(): number {
    const b = this.buf[this.pos++];
    if (b === undefined) throw invalid('unexpected end of module');
    return b;
  }

  u32(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.byte();
      result |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result >>> 0;
      shift += 7;
      if (shift > 35) throw invalid('LEB128 too long');
    }
  }

  skipLeb(): void {
    while (this.byte() & 0x80) {}
  }

  advance(n: number): void {
    this.pos += n;
    if (this.pos > this.buf.length) throw invalid('unexpected end of module');
  }
}

function invalid(msg: string): HostError {
  return new HostError(ErrType.WasmVm, ErrCode.InvalidInput, `invalid wasm: ${msg}`);
}

function leb(n: number): number[] {
  const out: number[] = [];
  let v = n >>> 0;
  do {
    let b = v & 0x7f;
    v >>>= 7;
    if (v !== 0) b |= 0x80;
    out.push(b);
  } while (v !== 0);
  return out;
}

function section(id: number, body: Uint8Array | number[]): Uint8Array {
  return Uint8Array.from([id, ...leb(body.length), ...body]);
}

function name(s: string): number[] {
  const b = Buffer.from(s);
  return [...leb(b.length), ...b];
}

/** `if (fuel == 0) unreachable; fuel -= 1` */
function fuelCheck(g: number): number[] {
  const get = [0x23, ...leb(g)];
  return [...get, 0x50, 0x04, 0x40, 0x00, 0x0b, ...get, 0x42, 0x01, 0x7d, 0x24, ...leb(g)];
}

function skipBlockType(r: Reader): void {
  const b = r.buf[r.pos];
  if (b === 0x40 || (b !== undefined && b >= 0x6f && b <= 0x7f)) r.advance(1);
  else r.skipLeb(); // type index as s33
}

function skipLimits(r: Reader): void {
  const flags = r.byte();
  r.u32();
  if (flags & 1) r.u32();
}

/** Copies one function body, inserting the fuel check after each `loop` header. */
function instrumentBody(body: Uint8Array, g: number): number[] {
  const r = new Reader(body);
  const out: number[] = [];
  const localGroups = r.u32();
  for (let i = 0; i < localGroups; i++) {
    r.u32();
    r.advance(1);
  }
  out.push(...body.subarray(0, r.pos), ...fuelCheck(g));
  let copied = r.pos;
  while (r.pos < body.length) {
    const op = r.byte();
    switch (op) {
      case 0x02:
      case 0x04:
        skipBlockType(r);
        break;
      case 0x03:
        skipBlockType(r);
        out.push(...body.subarray(copied, r.pos), ...fuelCheck(g));
        copied = r.pos;
        break;
      case 0x0c:
      case 0x0d:
      case 0x10:
      case 0xd2:
      case 0x20:
      case 0x21:
      case 0x22:
      case 0x23:
      case 0x24:
      case 0x25:
      case 0x26:
      case 0x3f:
      case 0x40:
        r.u32();
        break;
      case 0x0e: {
        const n = r.u32();
        for (let i = 0; i <= n; i++) r.u32();
        break;
      }
      case 0x11:
        r.u32();
        r.u32();
        break;
      case 0x1c:
        r.advance(r.u32());
        break;
      case 0x41:
      case 0x42:
        r.skipLeb();
        break;
      case 0x43:
        r.advance(4);
        break;
      case 0x44:
        r.advance(8);
        break;
      case 0xd0:
        r.advance(1);
        break;
      case 0xfc:
        skipPrefixed(r);
        break;
      default:
        if (op >= 0x28 && op <= 0x3e) {
          r.u32();
          r.u32();
        } else if (
          op > 0xd2 ||
          (op > 0xc4 && op < 0xd0) ||
          (op > 0x1c && op < 0x20) ||
          (op > 0x11 && op < 0x1a) ||
          (op > 0x05 && op < 0x0b)
        ) {
          throw invalid(`unsupported opcode 0x${op.toString(16)}`);
        }
    }
  }
  out.push(...body.subarray(copied));
  return out;
}

function skipPrefixed(r: Reader): void {
  const sub = r.u32();
  if (sub <= 7) return; // saturating truncations
  const immediates: Record<number, number> = {
    8: 2,
    9: 1,
    10: 2,
    11: 1,
    12: 2,
    13: 1,
    14: 2,
    15: 1,
    16: 1,
    17: 1,
  };
  const n = immediates[sub];
  if (n === undefined) throw invalid(`unsupported 0xfc opcode ${sub}`);
  for (let i = 0; i < n; i++) r.u32();
}

export function instrumentWasm(code: Uint8Array): Uint8Array {
  if (code.length < 8 || code[0] !== 0 || code[1] !== 0x61 || code[2] !== 0x73 || code[3] !== 0x6d) {
    throw invalid('bad magic');
  }
  const r = new Reader(code);
  r.advance(8);
  const sections: Array<{ id: number; body: Uint8Array }> = [];
  while (r.pos < code.length) {
    const id = r.byte();
    const size = r.u32();
    sections.push({ id, body: code.subarray(r.pos, r.pos + size) });
    r.advance(size);
  }
  let importedGlobals = 0;
  let definedGlobals = 0;
  for (const s of sections) {
    const sr = new Reader(s.body);
    if (s.id === 2) {
      const n = sr.u32();
      for (let i = 0; i < n; i++) {
        sr.advance(sr.u32());
        sr.advance(sr.u32());
        const kind = sr.byte();
        if (kind === 0) sr.u32();
        else if (kind === 1) {
          sr.advance(1);
          skipLimits(sr);
        } else if (kind === 2) skipLimits(sr);
        else {
          sr.advance(2);
          importedGlobals++;
        }
      }
    } else if (s.id === 6) definedGlobals = sr.u32();
  }
  const g = importedGlobals + definedGlobals;
  // i64 mutable global initialised to 0: the host sets the real budget before each call.
  const newGlobal = [0x7e, 0x01, 0x42, 0x00, 0x0b];

  const out: Uint8Array[] = [code.subarray(0, 8)];
  let globalsWritten = false;
  let exportsWritten = false;
  const ensureGlobals = () => {
    if (!globalsWritten) out.push(section(6, [...leb(1), ...newGlobal]));
    globalsWritten = true;
  };
  const ensureExports = () => {
    if (!exportsWritten) out.push(section(7, [...leb(1), ...name(FUEL_EXPORT), 0x03, ...leb(g)]));
    exportsWritten = true;
  };
  for (const s of sections) {
    if (s.id !== 0 && s.id > 6 && s.id !== 12) ensureGlobals();
    if (s.id !== 0 && s.id > 7 && s.id !== 12) ensureExports();
    if (s.id === 12) {
      ensureGlobals();
      ensureExports();
    }
    const sr = new Reader(s.body);
    if (s.id === 6) {
      const n = sr.u32();
      out.push(section(6, [...leb(n + 1), ...s.body.subarray(sr.pos), ...newGlobal]));
      globalsWritten = true;
    } else if (s.id === 7) {
      const n = sr.u32();
      out.push(
        section(7, [...leb(n + 1), ...s.body.subarray(sr.pos), ...name(FUEL_EXPORT), 0x03, ...leb(g)]),
      );
      exportsWritten = true;
    } else if (s.id === 10) {
      const n = sr.u32();
      const bodies: number[] = [...leb(n)];
      for (let i = 0; i < n; i++) {
        const size = sr.u32();
        const body = instrumentBody(s.body.subarray(sr.pos, sr.pos + size), g);
        sr.advance(size);
        bodies.push(...leb(body.length), ...body);
      }
      out.push(section(10, bodies));
    } else {
      out.push(section(s.id, s.body));
    }
  }
  ensureGlobals();
  ensureExports();
  return Buffer.concat(out);
}
