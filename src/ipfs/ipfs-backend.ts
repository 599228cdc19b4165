import type { ReadableStorage, UnixFSFile } from 'ipfs-unixfs-exporter';
import type { CID } from 'multiformats/cid';
import type { Queryable } from '../platform/db/database.ts';
import type { DirectoryEntryInput } from './unixfs-import.ts';

/**
 * An import whose blocks are written but not yet pinned: `commit` makes it permanent and runs `record`
 * (the upload's row) so that both happen or neither; `discard` drops it.
 */
export interface StagedImport {
  /** The root as `ipfs add` prints it (CIDv0). */
  readonly cid: CID;
  /** Bytes of content imported (a file's length, or the sum of a directory's files). */
  readonly bytes: number;
  commit(record: (tx: Queryable) => Promise<void>): Promise<void>;
  discard(): Promise<void>;
}

export type ByteRange = { offset: number; length: number };

/**
 * Where pinned DAGs live: the embedded block store in the data dir, or a Kubo node over its RPC. Both
 * build the DAGs `ipfs add` builds on a default Kubo node, so the CIDs are the same.
 */
export interface IpfsBackend {
  readonly kind: 'embedded' | 'kubo';
  /** Imports one file; nothing is kept until the answer's `commit`. */
  importFile(content: AsyncIterable<Uint8Array>): Promise<StagedImport>;
  /** Imports entries as one UnixFS directory (`ipfs add -r`); nothing is kept until `commit`. */
  importDirectory(entries: AsyncIterable<DirectoryEntryInput>): Promise<StagedImport>;
  /** No upload holds `cid` any more: unpin it and let its blocks go, except those another DAG holds. */
  release(cid: string): Promise<void>;
  /** Blocks for the gateway's path resolution. */
  readonly blocks: ReadableStorage;
  /** A file's bytes, or the part `range` names. */
  readFile(file: UnixFSFile, range: ByteRange | undefined): AsyncIterable<Uint8Array>;
  close(): Promise<void>;
}
