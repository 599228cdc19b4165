import type { Application } from '../../applications/applications.service.ts';
import { canonicalCid } from '../cid-text.ts';
import type { UploadRow } from '../ipfs.repository.ts';
import { insertUpload } from '../ipfs.repository.ts';
import { gatewayUrl, type IpfsContext } from '../ipfs-context.ts';
import { checkMetadataDocument, type MetadataDocument, metadataJson } from '../metadata-document.ts';

export type UploadMetadataParameters = { application: Application; document: MetadataDocument };
export type UploadMetadataReturnType = { cid: string; url: string; pinSize: number; timestamp: string };

/** `POST /ipfs/v2/file/metadata`: checks an NFT metadata document and pins it as a JSON file. */
export async function uploadMetadata(
  context: IpfsContext,
  parameters: UploadMetadataParameters,
): Promise<UploadMetadataReturnType> {
  checkMetadataDocument(parameters.document);
  const bytes = new TextEncoder().encode(metadataJson(parameters.document));
  const staged = await context.backend.importFile(
    (async function* () {
      yield bytes;
    })(),
  );
  const cid = canonicalCid(staged.cid);
  let row: UploadRow | undefined;
  await staged.commit(async (tx) => {
    row = await insertUpload(tx, {
      applicationId: parameters.application.id,
      cid,
      kind: 'metadata',
      filename: 'metadata.json',
      size: bytes.byteLength,
      contentType: 'application/json',
    });
  });
  return {
    cid,
    url: gatewayUrl(context, cid),
    pinSize: bytes.byteLength,
    timestamp: new Date((row as UploadRow).created_at).toISOString(),
  };
}
