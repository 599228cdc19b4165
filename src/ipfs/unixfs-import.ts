import type { ImportCandidate, ImporterOptions, WritableStorage } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';

/**
 * The DAG a default Kubo node builds with `ipfs add` (and `ipfs add -r`): CIDv0, 256 KiB fixed-size
 * chunks, balanced layout with at most 174 links a node, dag-pb leaves (raw leaves off), links before
 * data, HAMT sharding of directories past 256 KiB of links. IPIP-499 names this profile.
 */
export const kuboAddOptions: ImporterOptions = {
  profile: 'unixfs-v0-2015',
  // Blocks are hashed and written in batches of this many chunks: 8 × 256 KiB in flight an upload.
  blockWriteConcurrency: 8,
  fileImportConcurrency: 4,
};

export type ImportedDag = { cid: CID; bytes: number };

/** The importer, loaded with the first upload: a service that stores no files does not carry it. */
async function loadImporter() {
  return (await import('ipfs-unixfs-importer')).importer;
}

/** Imports one file's bytes; answers the root CID and the number of content bytes. */
export async function importFileContent(
  content: AsyncIterable<Uint8Array>,
  store: WritableStorage,
): Promise<ImportedDag> {
  let bytes = 0;
  async function* counted() {
    for await (const chunk of content) {
      bytes += chunk.byteLength;
      yield chunk;
    }
  }
  const importer = await loadImporter();
  let root: CID | undefined;
  for await (const entry of importer([{ content: counted() }], store, kuboAddOptions)) root = entry.cid;
  if (!root) throw new Error('the importer yielded no root');
  return { cid: root, bytes };
}

/** A file (with its content) or an empty directory, at a relative path inside the imported directory. */
export type DirectoryEntryInput =
  | { kind: 'file'; path: string; content: () => AsyncIterable<Uint8Array> }
  | { kind: 'directory'; path: string };

/**
 * Imports entries as one directory (what `ipfs add -r <dir>` gives for a folder holding them); answers
 * the directory's CID and the total bytes of its files.
 */
export async function importDirectoryEntries(
  entries: AsyncIterable<DirectoryEntryInput> | Iterable<DirectoryEntryInput>,
  store: WritableStorage,
): Promise<ImportedDag> {
  let bytes = 0;
  async function* candidates(): AsyncGenerator<ImportCandidate> {
    for await (const entry of entries) {
      if (entry.kind === 'directory') {
        yield { path: entry.path };
        continue;
      }
      const source = entry.content;
      yield {
        path: entry.path,
        content: (async function* () {
          for await (const chunk of source()) {
            bytes += chunk.byteLength;
            yield chunk;
          }
        })(),
      };
    }
  }
  const importer = await loadImporter();
  let root: CID | undefined;
  for await (const entry of importer(candidates(), store, { ...kuboAddOptions, wrapWithDirectory: true })) {
    if (entry.path === '' || entry.path === undefined) root = entry.cid;
  }
  if (!root) throw new Error('the importer yielded no directory');
  return { cid: root, bytes };
}
