import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CID } from 'multiformats/cid';
import { writeDurably } from './block-store.ts';
import { blockKey } from './cid-text.ts';

/**
 * Where one upload's blocks are written while it streams (`<data dir>/ipfs/staging/<id>/`). Nothing here
 * is served: the blocks reach the store only when the upload commits, so an upload refused half way
 * (over the limit, a missing field, a dropped connection) leaves nothing behind.
 */
export class StagingArea {
  /** Keys of the distinct blocks written, in the order first written. */
  readonly keys = new Set<string>();

  private constructor(readonly directory: string) {}

  static async create(parent: string, id: string): Promise<StagingArea> {
    const directory = join(parent, id);
    await mkdir(directory, { recursive: true });
    return new StagingArea(directory);
  }

  async put(cid: CID, bytes: Uint8Array): Promise<CID> {
    const key = blockKey(cid);
    if (this.keys.has(key)) return cid;
    this.keys.add(key);
    await writeDurably(join(this.directory, key), bytes);
    return cid;
  }

  async remove(): Promise<void> {
    await rm(this.directory, { recursive: true, force: true });
  }
}
