import type { Application } from '../../applications/applications.service.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import { canonicalCid, parseCid } from '../cid-text.ts';
import {
  countApplicationUploads,
  deleteApplicationUploads,
  listApplicationUploads,
  type UploadKind,
} from '../ipfs.repository.ts';
import { gatewayUrl, type IpfsContext } from '../ipfs-context.ts';

export type ListUploadsParameters = { application: Application; page: number; pageSize: number };
export type UploadRecord = {
  cid: string;
  url: string;
  filename: string;
  kind: UploadKind;
  size: number;
  contentType: string;
  createdAt: string;
};
export type ListUploadsReturnType = { files: UploadRecord[]; page: number; pageSize: number; total: number };

/** `GET /ipfs/v2/files`: the calling application's uploads, newest first, one page. */
export async function listUploads(
  context: IpfsContext,
  parameters: ListUploadsParameters,
): Promise<ListUploadsReturnType> {
  const { db } = context.platform;
  const applicationId = parameters.application.id;
  const rows = await listApplicationUploads(db, applicationId, {
    limit: parameters.pageSize,
    offset: (parameters.page - 1) * parameters.pageSize,
  });
  return {
    files: rows.map((row) => ({
      cid: row.cid,
      url: gatewayUrl(context, row.cid),
      filename: row.filename,
      kind: row.kind,
      size: Number(row.size),
      contentType: row.content_type,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    page: parameters.page,
    pageSize: parameters.pageSize,
    total: await countApplicationUploads(db, applicationId),
  };
}

export type UnpinUploadParameters = { application: Application; cid: string };
export type UnpinUploadReturnType = { cid: string; removed: number };

/**
 * `DELETE /ipfs/v2/files/{cid}`: forgets the application's uploads of that CID. When no application
 * holds it any more it is unpinned, and its blocks are deleted except those another pinned DAG holds.
 */
export async function unpinUpload(
  context: IpfsContext,
  parameters: UnpinUploadParameters,
): Promise<UnpinUploadReturnType> {
  const cid = canonicalCid(parseCid(parameters.cid, 'cid'));
  const removed = await deleteApplicationUploads(context.platform.db, parameters.application.id, cid);
  if (removed === 0) {
    throw new ChaingateError('CG_ERR_NOT_FOUND', `no upload of ${cid} by this application`, {
      context: { cid },
    });
  }
  await context.backend.release(cid);
  return { cid, removed };
}
