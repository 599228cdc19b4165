import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { ReadableStorage, UnixFSFile } from 'ipfs-unixfs-exporter';
import { CID } from 'multiformats/cid';
import type { Database, Queryable } from '../platform/db/database.ts';
import { ChaingateError } from '../platform/errors/chaingate-error.ts';
import { canonicalCid } from './cid-text.ts';
import { isCidPinned } from './ipfs.repository.ts';
import type { ByteRange, IpfsBackend, StagedImport } from './ipfs-backend.ts';
import { addedRoot, KuboRpc } from './kubo-rpc.ts';
import { KeyedLock } from './serial-lock.ts';
import { type DirectoryEntryInput, importDirectoryEntries, importFileContent } from './unixfs-import.ts';

/** Computes CIDs without keeping blocks: the local check of what Kubo answers. */
const hashOnly = { put: async (cid: CID) => cid };

/** Copies `source` into a file while passing it on (with the file stream's back-pressure). */
async function* teeToFile(source: AsyncIterable<Uint8Array>, path: string): AsyncGenerator<Uint8Array> {
  const out = createWriteStream(path, { mode: 0o600 });
  // A write error (a full disk) is kept and thrown to the reader, never left unhandled.
  let failure: unknown;
  out.on('error', (error) => {
    failure ??= error;
  });
  try {
    for await (const chunk of source) {
      if (failure) throw failure;
      if (!out.write(chunk)) await once(out, 'drain');
      yield chunk;
    }
    out.end();
    await finished(out);
    if (failure) throw failure;
  } finally {
    out.destroy();
  }
}

/** Name of the folder a directory upload is sent to Kubo as (`ipfs add -r upload`); it is not in the CID. */
const DIRECTORY_NAME = 'upload';

/**
 * Pins on a Kubo node over its RPC. An upload is first written to `<data dir>/ipfs/tmp` while its CID is
 * computed here; only a complete upload within the limit is sent to `/api/v0/add`, and Kubo's CID must
 * equal the local one (a node configured with other import settings is refused, not silently used).
 */
export class KuboBackend implements IpfsBackend {
  readonly kind = 'kubo' as const;
  readonly blocks: ReadableStorage;
  readonly #rpc: KuboRpc;
  /** Per root CID: an add and an unpin of the same DAG never interleave; other uploads run alongside. */
  readonly #lock = new KeyedLock();

  private constructor(
    private readonly db: Database,
    private readonly tmpDirectory: string,
    apiUrl: string,
  ) {
    this.#rpc = new KuboRpc(apiUrl);
    const rpc = this.#rpc;
    this.blocks = {
      async *get(cid: CID) {
        yield await rpc.blockGet(cid);
      },
    };
  }

  static async open(db: Database, directory: string, apiUrl: string): Promise<KuboBackend> {
    const tmp = join(directory, 'tmp');
    await rm(tmp, { recursive: true, force: true });
    await mkdir(tmp, { recursive: true });
    return new KuboBackend(db, tmp, apiUrl);
  }

  async importFile(content: AsyncIterable<Uint8Array>): Promise<StagedImport> {
    const work = join(this.tmpDirectory, randomUUID());
    await mkdir(work);
    const file = join(work, 'file');
    try {
      const dag = await importFileContent(teeToFile(content, file), hashOnly);
      return this.#staged(dag.cid, dag.bytes, work, async () => {
        const form = new FormData();
        form.append('file', await openAsBlob(file), 'file');
        return addedRoot(await this.#rpc.add(form), 'file');
      });
    } catch (error) {
      await rm(work, { recursive: true, force: true });
      throw error;
    }
  }

  async importDirectory(entries: AsyncIterable<DirectoryEntryInput>): Promise<StagedImport> {
    const work = join(this.tmpDirectory, randomUUID());
    await mkdir(work);
    const files = new Map<string, string>();
    const directories = new Set<string>();
    async function* spooled(): AsyncGenerator<DirectoryEntryInput> {
      for await (const entry of entries) {
        const parts = entry.path.split('/');
        for (let depth = 1; depth < parts.length; depth++) directories.add(parts.slice(0, depth).join('/'));
        if (entry.kind === 'directory') {
          directories.add(entry.path);
          yield entry;
          continue;
        }
        const spool = join(work, String(files.size));
        files.set(entry.path, spool);
        yield { ...entry, content: () => teeToFile(entry.content(), spool) };
      }
    }
    try {
      const dag = await importDirectoryEntries(spooled(), hashOnly);
      return this.#staged(dag.cid, dag.bytes, work, async () => {
        // Kubo's multipart reader wants each folder before what it holds: sorted paths give that order.
        const form = new FormData();
        form.append('file', new Blob([], { type: 'application/x-directory' }), DIRECTORY_NAME);
        const paths = [...directories, ...files.keys()].sort();
        for (const path of paths) {
          const name = encodeURIComponent(`${DIRECTORY_NAME}/${path}`);
          const spool = files.get(path);
          if (spool === undefined)
            form.append('file', new Blob([], { type: 'application/x-directory' }), name);
          else form.append('file', await openAsBlob(spool), name);
        }
        return addedRoot(await this.#rpc.add(form), DIRECTORY_NAME);
      });
    } catch (error) {
      await rm(work, { recursive: true, force: true });
      throw error;
    }
  }

  #staged(cid: CID, bytes: number, work: string, send: () => Promise<CID>): StagedImport {
    const root = canonicalCid(cid);
    const cleanup = () => rm(work, { recursive: true, force: true });
    return {
      cid,
      bytes,
      discard: cleanup,
      commit: async (record: (tx: Queryable) => Promise<void>) => {
        try {
          await this.#lock.run(root, async () => {
            const sent = await send();
            const answered = canonicalCid(sent);
            if (answered !== root) {
              await this.#unpinUnlessHeld(answered);
              throw new ChaingateError(
                'CG_ERR_DEPENDENCY',
                'the Kubo node built a different CID than `ipfs add` defaults give (check its Import settings)',
                { context: { expected: root, answered } },
              );
            }
            try {
              await this.db.transaction(record);
            } catch (error) {
              await this.#unpinUnlessHeld(root);
              throw error;
            }
          });
        } finally {
          await cleanup();
        }
      },
    };
  }

  /**
   * Unpins `cid` unless an upload still holds it. Kubo keys pins by the CID as added, so both the CIDv0
   * and the CIDv1 form are unpinned (a node set to CIDv1 pins the CIDv1 of the same DAG).
   */
  async #unpinUnlessHeld(cid: string): Promise<void> {
    if (await isCidPinned(this.db, cid)) return;
    const parsed = CID.parse(cid);
    const forms = new Set([parsed.toString(), parsed.toV1().toString()]);
    for (const form of forms) await this.#rpc.pinRm(form);
  }

  release(cid: string): Promise<void> {
    return this.#lock.run(cid, () => this.#unpinUnlessHeld(cid));
  }

  readFile(file: UnixFSFile, range: ByteRange | undefined): AsyncIterable<Uint8Array> {
    return this.#rpc.cat(file.cid, range);
  }

  async close(): Promise<void> {}
}
