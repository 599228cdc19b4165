import type { Application } from '../../applications/applications.service.ts';
import { type FormPart, readUploadForm } from '../../platform/uploads/upload-form.ts';
import { canonicalCid } from '../cid-text.ts';
import { SNIFF_BYTES, sniffContentType } from '../content-type.ts';
import { insertUpload } from '../ipfs.repository.ts';
import type { StagedImport } from '../ipfs-backend.ts';
import { gatewayUrl, type IpfsContext } from '../ipfs-context.ts';

export type UploadFileParameters = { application: Application; form: AsyncIterable<FormPart> };
export type UploadFileReturnType = { cid: string; url: string; size: number; contentType: string };

/** Keeps the first bytes of a stream that passes through, to sniff its type afterwards. */
function headOf(source: AsyncIterable<Uint8Array>): {
  stream: AsyncIterable<Uint8Array>;
  head(): Uint8Array;
} {
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  return {
    stream: (async function* () {
      for await (const chunk of source) {
        if (keptBytes < SNIFF_BYTES) {
          kept.push(chunk.subarray(0, SNIFF_BYTES - keptBytes));
          keptBytes += Math.min(chunk.byteLength, SNIFF_BYTES - keptBytes);
        }
        yield chunk;
      }
    })(),
    head: () => Buffer.concat(kept),
  };
}

/**
 * `POST /ipfs/v2/file/upload`: streams the `file` part into the backend as it arrives (memory stays
 * flat whatever the size), then pins it and records it for the application under `filename`.
 */
export async function uploadFile(
  context: IpfsContext,
  parameters: UploadFileParameters,
): Promise<UploadFileReturnType> {
  const { fields, file } = await readUploadForm<{ staged: StagedImport; head: Uint8Array }>({
    form: parameters.form,
    fields: [{ name: 'filename', required: true }],
    maxBytes: context.maxUploadBytes,
    onFile: async (content) => {
      const sampled = headOf(content);
      const staged = await context.backend.importFile(sampled.stream);
      return { staged, head: sampled.head() };
    },
    discard: ({ staged }) => staged.discard(),
  });
  const filename = fields.get('filename') as string;
  const cid = canonicalCid(file.staged.cid);
  const contentType = sniffContentType(file.head, filename);
  await file.staged.commit(async (tx) => {
    await insertUpload(tx, {
      applicationId: parameters.application.id,
      cid,
      kind: 'file',
      filename,
      size: file.staged.bytes,
      contentType,
    });
  });
  return { cid, url: gatewayUrl(context, cid), size: file.staged.bytes, contentType };
}
