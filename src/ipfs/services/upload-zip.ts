import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Application } from '../../applications/applications.service.ts';
import { type FormPart, readUploadForm } from '../../platform/uploads/upload-form.ts';
import { openZipListing } from '../../platform/uploads/zip-entries.ts';
import { canonicalCid } from '../cid-text.ts';
import { insertUpload } from '../ipfs.repository.ts';
import { gatewayUrl, type IpfsContext } from '../ipfs-context.ts';

export type UploadZipParameters = { application: Application; form: AsyncIterable<FormPart> };
export type UploadZipReturnType = { cid: string; url: string; size: number };

/**
 * `POST /ipfs/v2/upload/zip`: stores a zip's contents as one UnixFS directory (the CID `ipfs add -r`
 * gives the unpacked folder), so a whole collection's metadata folder is one upload. The zip is spooled
 * to disk within the upload limit, checked whole (entries, names, declared sizes), then imported.
 */
export async function uploadZip(
  context: IpfsContext,
  parameters: UploadZipParameters,
): Promise<UploadZipReturnType> {
  const spool = join(context.spoolDirectory, `${randomUUID()}.zip`);
  try {
    const read = await readUploadForm<{ filename: string | undefined }>({
      form: parameters.form,
      fields: [{ name: 'filename', required: false }],
      maxBytes: context.maxUploadBytes,
      onFile: async (content, filename) => {
        await pipeline(Readable.from(content), createWriteStream(spool, { mode: 0o600 }));
        return { filename };
      },
      discard: async () => undefined,
    });
    const listing = await openZipListing(spool, {
      maxEntries: context.maxZipEntries,
      maxUnpackedBytes: context.maxUploadBytes,
    });
    let staged: Awaited<ReturnType<typeof context.backend.importDirectory>>;
    try {
      staged = await context.backend.importDirectory(listing.entries);
    } finally {
      listing.close();
    }
    const cid = canonicalCid(staged.cid);
    const filename = read.fields.get('filename') || read.file.filename || 'upload.zip';
    await staged.commit(async (tx) => {
      await insertUpload(tx, {
        applicationId: parameters.application.id,
        cid,
        kind: 'directory',
        filename,
        size: staged.bytes,
        contentType: 'application/x-directory',
      });
    });
    return { cid, url: gatewayUrl(context, cid), size: staged.bytes };
  } finally {
    await rm(spool, { force: true });
  }
}
