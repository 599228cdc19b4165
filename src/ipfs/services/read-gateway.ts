import type { UnixFSEntry } from 'ipfs-unixfs-exporter';
import type { CID } from 'multiformats/cid';
import { ChaingateError, quote } from '../../platform/errors/chaingate-error.ts';
import { BlockNotFoundError } from '../block-store.ts';
import { canonicalCid, parseCid } from '../cid-text.ts';
import { SNIFF_BYTES, sniffContentType } from '../content-type.ts';
import { findUploadDescription } from '../ipfs.repository.ts';
import type { ByteRange } from '../ipfs-backend.ts';
import type { IpfsContext } from '../ipfs-context.ts';

export type GatewayFile = {
  kind: 'file';
  cid: CID;
  size: number;
  contentType: string;
  read(range: ByteRange | undefined): AsyncIterable<Uint8Array>;
};
export type GatewayDirectory = {
  kind: 'directory';
  cid: CID;
  entries: { name: string; cid: string; size: number }[];
};
export type ReadGatewayParameters = { cid: string; path: string[] };
export type ReadGatewayReturnType = GatewayFile | GatewayDirectory;

const MAX_LISTED_ENTRIES = 10_000;

function notFound(what: string): ChaingateError {
  return new ChaingateError('CG_ERR_NOT_FOUND', `${what} is not stored here`);
}

/** Errors of path resolution that mean "nothing there", as opposed to a failing store. */
function isAbsent(error: unknown): boolean {
  if (error instanceof BlockNotFoundError) return true;
  const code = (error as { code?: string }).code;
  return code === 'ERR_NOT_FOUND' || code === 'ERR_NO_RESOLVER' || code === 'ERR_NOT_UNIXFS';
}

async function resolve(context: IpfsContext, root: CID, path: string[]): Promise<UnixFSEntry> {
  const address = [root.toString(), ...path].join('/');
  try {
    // Loaded with the first gateway read: a service that serves no files does not carry it.
    const { exporter } = await import('ipfs-unixfs-exporter');
    return await exporter(address, context.backend.blocks);
  } catch (error) {
    if (isAbsent(error)) throw notFound(path.length ? `${quote(path.join('/'))} in ${root}` : String(root));
    throw error;
  }
}

async function firstBytes(read: GatewayFile['read'], size: number): Promise<Uint8Array> {
  if (size === 0) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  for await (const chunk of read({ offset: 0, length: Math.min(SNIFF_BYTES, size) })) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * `GET /ipfs/<cid>[/<path>]`: resolves a CID (any of its forms) and a path inside it to a file or a
 * directory. A root that an application uploaded keeps the type recorded at upload; anything else is
 * typed from its first bytes and its name.
 */
export async function readGateway(
  context: IpfsContext,
  parameters: ReadGatewayParameters,
): Promise<ReadGatewayReturnType> {
  const root = parseCid(parameters.cid, 'cid');
  const entry = await resolve(context, root, parameters.path);
  if (entry.type === 'directory') {
    const entries: GatewayDirectory['entries'] = [];
    for await (const child of entry.entries()) {
      entries.push({ name: child.name, cid: canonicalCid(child.cid), size: Number(child.size) });
      if (entries.length >= MAX_LISTED_ENTRIES) break;
    }
    return { kind: 'directory', cid: entry.cid, entries };
  }
  if (entry.type !== 'file' && entry.type !== 'raw') throw notFound(String(root));
  const size = Number(entry.size);
  const read =
    entry.type === 'file'
      ? (range: ByteRange | undefined) => context.backend.readFile(entry, range)
      : (range: ByteRange | undefined) => entry.content(range);
  let contentType: string;
  const recorded =
    parameters.path.length === 0
      ? await findUploadDescription(context.platform.db, canonicalCid(root))
      : undefined;
  if (recorded) contentType = recorded.content_type;
  else contentType = sniffContentType(await firstBytes(read, size), parameters.path.at(-1));
  return { kind: 'file', cid: entry.cid, size, contentType, read };
}
