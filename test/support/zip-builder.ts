import { crc32, deflateRawSync } from 'node:zlib';

export type ZipItem = {
  name: string;
  /** Absent for a folder entry (its name ends with `/`). */
  data?: Uint8Array;
  /** Deflate the data (default: stored). */
  deflate?: boolean;
  /** Writes this uncompressed size instead of the real one (a lying entry). */
  declaredSize?: number;
  /** Marks the entry as a Unix symbolic link. */
  symlink?: boolean;
};

/**
 * Writes a zip archive (PKWARE APPNOTE 4.3: local headers, central directory, end record) from items,
 * with the liberties a malicious archive takes when asked: a lying size, a symbolic link, any name.
 */
export function buildZip(items: ZipItem[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const item of items) {
    const name = Buffer.from(item.name, 'utf8');
    const data = Buffer.from(item.data ?? new Uint8Array());
    const body = item.deflate ? deflateRawSync(data) : data;
    const method = item.deflate ? 8 : 0;
    const crc = crc32(data);
    const size = item.declaredSize ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    const mode = item.symlink ? 0o120777 : item.name.endsWith('/') ? 0o040755 : 0o100644;
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(items.length, 8);
  end.writeUInt16LE(items.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
