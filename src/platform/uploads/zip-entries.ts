import { type Entry, open as openZip, type ZipFile } from 'yauzl';
import { ChaingateError, quote } from '../errors/chaingate-error.ts';

export type ZipLimits = {
  /** Most entries (files and folders) a zip may hold. */
  maxEntries: number;
  /** Most bytes its files may unpack to, declared and actual. */
  maxUnpackedBytes: number;
};

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const MAX_PATH_LENGTH = 1024;

function badZip(message: string, context?: Record<string, unknown>): ChaingateError {
  return new ChaingateError('CG_ERR_BAD_REQUEST', `file: ${message}`, { context });
}

/** A relative path that stays inside the directory, or a 400 naming the entry. */
function checkedPath(name: string): string {
  const path = name.replace(/\/$/, '');
  const fail = (why: string) => badZip(`zip entry ${quote(name)} ${why}`, { entry: name });
  if (path.length === 0) throw fail('has an empty name');
  if (path.length > MAX_PATH_LENGTH) throw fail('has a name that is too long');
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path) || path.includes('\\'))
    throw fail('is an absolute path');
  if ([...path].some((char) => char.charCodeAt(0) < 0x20)) throw fail('has a control character in its name');
  for (const segment of path.split('/')) {
    if (segment === '..') throw fail('leaves the folder (`..`)');
    if (segment === '' || segment === '.') throw fail('has an empty or `.` path segment');
  }
  return path;
}

function openZipFile(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    openZip(
      path,
      {
        lazyEntries: true,
        autoClose: false,
        decodeStrings: true,
        validateEntrySizes: true,
        strictFileNames: true,
      },
      (error, zip) => (error || !zip ? reject(error) : resolve(zip)),
    ),
  );
}

/** Every entry of the central directory, refused on the first one that breaks a rule. */
function readCentralDirectory(zip: ZipFile, limits: ZipLimits): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    let declared = 0;
    zip.on('error', reject);
    zip.on('end', () => resolve(entries));
    zip.on('entry', (entry: Entry) => {
      try {
        if (entries.length >= limits.maxEntries) {
          throw badZip(`the zip holds more than ${limits.maxEntries} entries`);
        }
        checkedPath(entry.fileName);
        const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
        if (mode === S_IFLNK) throw badZip(`zip entry ${quote(entry.fileName)} is a symbolic link`);
        if (entry.isEncrypted()) throw badZip(`zip entry ${quote(entry.fileName)} is encrypted`);
        declared += entry.uncompressedSize;
        if (declared > limits.maxUnpackedBytes) {
          throw badZip(`the zip unpacks to more than ${limits.maxUnpackedBytes} bytes`);
        }
        entries.push(entry);
        zip.readEntry();
      } catch (error) {
        reject(error);
      }
    });
    zip.readEntry();
  });
}

/** Refuses two entries at one path, and a file that another entry treats as a folder. */
function checkTree(entries: Entry[]): void {
  const files = new Set<string>();
  const seen = new Set<string>();
  for (const entry of entries) {
    const path = checkedPath(entry.fileName);
    if (seen.has(path)) throw badZip(`zip entry ${quote(path)} appears twice`);
    seen.add(path);
    if (!entry.fileName.endsWith('/')) files.add(path);
  }
  for (const path of seen) {
    const parts = path.split('/');
    for (let depth = 1; depth < parts.length; depth++) {
      const parent = parts.slice(0, depth).join('/');
      if (files.has(parent)) throw badZip(`zip entry ${quote(path)} is inside ${quote(parent)}, a file`);
    }
  }
}

/** One entry of a checked zip: a folder, or a file whose bytes stream on demand (checked as they come). */
export type ZipEntry =
  | { kind: 'file'; path: string; content: () => AsyncIterable<Uint8Array> }
  | { kind: 'directory'; path: string };

export type ZipListing = {
  entries: AsyncIterable<ZipEntry>;
  close(): void;
};

/**
 * Opens a zip (already on disk: zips are read from their central directory at the end) and checks it
 * before anything is imported: entry count, declared unpacked size, names (no absolute path, no `..`,
 * no symbolic link). While unpacking, yauzl checks each entry's actual size against the declared one,
 * and the running total is checked against the limit too: a zip bomb is a 400, never a full disk.
 */
export async function openZipListing(path: string, limits: ZipLimits): Promise<ZipListing> {
  let zip: ZipFile;
  try {
    zip = await openZipFile(path);
  } catch (cause) {
    throw badZip(`not a valid zip archive (${quote((cause as Error).message)})`);
  }
  let entries: Entry[];
  try {
    entries = await readCentralDirectory(zip, limits);
    checkTree(entries);
    if (entries.length === 0) throw badZip('the zip is empty');
  } catch (error) {
    zip.close();
    if (error instanceof ChaingateError) throw error;
    throw badZip(`not a valid zip archive (${quote((error as Error).message)})`);
  }
  let unpacked = 0;
  const content = async function* (entry: Entry): AsyncGenerator<Uint8Array> {
    let stream: AsyncIterable<Buffer>;
    try {
      stream = await zip.openReadStreamPromise(entry);
    } catch (cause) {
      throw badZip(`zip entry ${quote(entry.fileName)} cannot be read (${quote((cause as Error).message)})`);
    }
    try {
      for await (const chunk of stream) {
        unpacked += chunk.byteLength;
        if (unpacked > limits.maxUnpackedBytes) {
          throw badZip(`the zip unpacks to more than ${limits.maxUnpackedBytes} bytes`);
        }
        yield chunk;
      }
    } catch (error) {
      if (error instanceof ChaingateError) throw error;
      throw badZip(`zip entry ${quote(entry.fileName)} is corrupt (${quote((error as Error).message)})`);
    }
  };
  async function* listing(): AsyncGenerator<ZipEntry> {
    for (const entry of entries) {
      const path = checkedPath(entry.fileName);
      if (entry.fileName.endsWith('/')) yield { kind: 'directory', path };
      else yield { kind: 'file', path, content: () => content(entry) };
    }
  }
  return { entries: listing(), close: () => zip.close() };
}
