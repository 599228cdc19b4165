import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CID } from 'multiformats/cid';
import { blockKey } from './cid-text.ts';

/** A block the store does not hold: the gateway answers 404. */
export class BlockNotFoundError extends Error {
  override name = 'BlockNotFoundError';
  constructor(readonly cid: CID) {
    super(`block ${cid.toString()} is not in the store`);
  }
}

function isMissing(error: unknown): boolean {
  return (error as { code?: string }).code === 'ENOENT';
}

/** Writes a file and flushes it to disk before answering: its bytes are durable before any rename. */
export async function writeDurably(path: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(path, 'w', 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** Flushes a directory, so that the renames into it survive a crash. */
async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** File system calls in flight at once: enough to keep the disk and libuv's thread pool busy. */
const FS_CONCURRENCY = 16;

async function inParallel<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(FS_CONCURRENCY, items.length) }, worker));
}

/**
 * The embedded node's blocks, one file per block under `<data dir>/ipfs/blocks/<xx>/<key>` (key: the
 * multihash in base32, so every CID form of a block finds it). A block file only ever appears by an
 * atomic rename of a complete, flushed file (see `adopt`): a crash leaves a block either whole or absent,
 * never half written.
 */
export class FsBlockStore {
  constructor(readonly directory: string) {}

  #path(key: string): string {
    return join(this.directory, key.slice(-2), key);
  }

  async *get(cid: CID): AsyncGenerator<Uint8Array> {
    try {
      yield await readFile(this.#path(blockKey(cid)));
    } catch (error) {
      if (isMissing(error)) throw new BlockNotFoundError(cid);
      throw error;
    }
  }

  async has(cid: CID): Promise<boolean> {
    try {
      await stat(this.#path(blockKey(cid)));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /**
   * Moves complete, flushed block files (named by key in `stagingDirectory`) into the store and flushes
   * the directories that gained an entry. A block already present is replaced by identical bytes.
   */
  async adopt(stagingDirectory: string, keys: Iterable<string>): Promise<void> {
    const list = [...keys];
    const shards = [...new Set(list.map((key) => join(this.directory, key.slice(-2))))];
    await inParallel(shards, (shard) => mkdir(shard, { recursive: true }));
    await inParallel(list, (key) => rename(join(stagingDirectory, key), this.#path(key)));
    await inParallel(shards, syncDirectory);
  }

  async remove(keys: Iterable<string>): Promise<void> {
    for (const key of keys) await rm(this.#path(key), { force: true });
  }
}
