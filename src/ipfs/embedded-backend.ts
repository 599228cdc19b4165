import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { UnixFSFile } from 'ipfs-unixfs-exporter';
import type { Database, Queryable } from '../platform/db/database.ts';
import { FsBlockStore } from './block-store.ts';
import { canonicalCid } from './cid-text.ts';
import { dropDagBlocks, insertDagBlocks, isCidPinned, unreferencedBlocks } from './ipfs.repository.ts';
import type { ByteRange, IpfsBackend, StagedImport } from './ipfs-backend.ts';
import { SerialLock } from './serial-lock.ts';
import { StagingArea } from './staging-area.ts';
import {
  type DirectoryEntryInput,
  type ImportedDag,
  importDirectoryEntries,
  importFileContent,
} from './unixfs-import.ts';

/**
 * The embedded node: blocks in `<data dir>/ipfs/blocks`, each upload staged first and moved in on
 * commit, with the blocks of every pinned root listed in the store so that unpinning deletes exactly
 * the blocks no other pinned DAG holds.
 */
export class EmbeddedBackend implements IpfsBackend {
  readonly kind = 'embedded' as const;
  readonly blocks: FsBlockStore;
  readonly #lock = new SerialLock();

  private constructor(
    private readonly db: Database,
    private readonly stagingDirectory: string,
    blocksDirectory: string,
  ) {
    this.blocks = new FsBlockStore(blocksDirectory);
  }

  /** Opens the store under `directory`, dropping what uploads cut short by a crash left in staging. */
  static async open(db: Database, directory: string): Promise<EmbeddedBackend> {
    const staging = join(directory, 'staging');
    const blocks = join(directory, 'blocks');
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging, { recursive: true });
    await mkdir(blocks, { recursive: true });
    return new EmbeddedBackend(db, staging, blocks);
  }

  importFile(content: AsyncIterable<Uint8Array>): Promise<StagedImport> {
    return this.#stage((area) => importFileContent(content, area));
  }

  importDirectory(entries: AsyncIterable<DirectoryEntryInput>): Promise<StagedImport> {
    return this.#stage((area) => importDirectoryEntries(entries, area));
  }

  async #stage(run: (area: StagingArea) => Promise<ImportedDag>): Promise<StagedImport> {
    const area = await StagingArea.create(this.stagingDirectory, randomUUID());
    let dag: ImportedDag;
    try {
      dag = await run(area);
    } catch (error) {
      await area.remove();
      throw error;
    }
    const root = canonicalCid(dag.cid);
    return {
      cid: dag.cid,
      bytes: dag.bytes,
      commit: (record) => this.#commit(area, root, record),
      discard: () => area.remove(),
    };
  }

  async #commit(area: StagingArea, root: string, record: (tx: Queryable) => Promise<void>): Promise<void> {
    try {
      await this.#lock.run(async () => {
        await this.blocks.adopt(area.directory, area.keys);
        try {
          await this.db.transaction(async (tx) => {
            await insertDagBlocks(tx, root, [...area.keys]);
            await record(tx);
          });
        } catch (error) {
          // The blocks moved in but nothing pins them: take back those no other DAG holds.
          await this.blocks.remove(await unreferencedBlocks(this.db, [...area.keys]));
          throw error;
        }
      });
    } finally {
      await area.remove();
    }
  }

  release(cid: string): Promise<void> {
    return this.#lock.run(async () => {
      const orphans = await this.db.transaction(async (tx) => {
        if (await isCidPinned(tx, cid)) return [];
        return dropDagBlocks(tx, cid);
      });
      await this.blocks.remove(orphans);
    });
  }

  readFile(file: UnixFSFile, range: ByteRange | undefined): AsyncIterable<Uint8Array> {
    return file.content(range);
  }

  async close(): Promise<void> {}
}
