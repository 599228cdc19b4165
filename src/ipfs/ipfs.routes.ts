import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { applicationOf } from '../applications/application-auth.ts';
import { errorResponses } from '../platform/http/error-body.ts';
import { formParts } from '../platform/uploads/form-parts.ts';
import {
  CidParams,
  MetadataAnswer,
  MetadataDocumentBody,
  UnpinAnswer,
  UploadAnswer,
  UploadPage,
  UploadPageQuery,
} from './ipfs.schemas.ts';
import { dropNullOptionals, type MetadataDocument } from './metadata-document.ts';
import { listUploads, unpinUpload } from './services/manage-uploads.ts';
import { uploadFile } from './services/upload-file.ts';
import { uploadMetadata } from './services/upload-metadata.ts';
import { uploadZip } from './services/upload-zip.ts';

const METADATA_BODY_LIMIT = 4 * 1024 * 1024;

const IPFS_FORM_FIELDS = "the fields 'filename' and 'file'";

const uploadCodes = ['CG_ERR_VALIDATION', 'CG_ERR_BODY_TOO_LARGE', 'CG_ERR_UNSUPPORTED_MEDIA_TYPE'] as const;

/**
 * The IPFS API of document 2 (upload a file, upload NFT metadata) and chaingate's additions (zip
 * folders, listing and unpinning), registered inside the authenticated scope. The gateway is public:
 * `gateway.routes.ts`.
 */
export async function ipfsRoutes(scope: FastifyInstance): Promise<void> {
  // Limits are checked while streaming (see `formParts`), not by the parser throwing mid-request.
  await scope.register(multipart, { throwFileSizeLimit: false });
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['ipfs'];

  app.post(
    '/ipfs/v2/file/upload',
    {
      schema: {
        tags,
        summary: 'Upload a file to IPFS',
        description:
          'multipart/form-data with the fields `filename` (the name recorded for the upload) and `file` ' +
          '(the bytes), in either order. The file streams to the store; its CID is the one `ipfs add` gives ' +
          'on a default Kubo node (CIDv0). Over the configured limit (default 100 MiB): 413 and nothing is ' +
          'stored. Answers the gateway URL as `hash` and as `url`.',
        consumes: ['multipart/form-data'],
        response: { 201: UploadAnswer, ...errorResponses([...uploadCodes]) },
      },
    },
    async (request, reply) => {
      const context = app.ipfs;
      const upload = await uploadFile(context, {
        application: applicationOf(request),
        form: formParts(request, context.maxUploadBytes, IPFS_FORM_FIELDS),
      });
      return reply.status(201).send({ hash: upload.url, url: upload.url, cid: upload.cid });
    },
  );

  app.post(
    '/ipfs/v2/upload/zip',
    {
      schema: {
        tags,
        summary: 'Upload a zip as one IPFS directory',
        description:
          'multipart/form-data with the field `file` (a zip; `filename` is optional). Stores the zip’s ' +
          'contents as a UnixFS directory with the CID `ipfs add -r` gives for the unpacked folder, and ' +
          'answers its gateway URL: `<url>/<path in the zip>` serves each file. Refused with 400: an ' +
          'absolute path, `..`, a symbolic link, more than 10,000 entries, or contents (declared or ' +
          'actual) over the upload limit.',
        consumes: ['multipart/form-data'],
        response: { 201: UploadAnswer, ...errorResponses([...uploadCodes]) },
      },
    },
    async (request, reply) => {
      const context = app.ipfs;
      const upload = await uploadZip(context, {
        application: applicationOf(request),
        form: formParts(request, context.maxUploadBytes, IPFS_FORM_FIELDS),
      });
      return reply.status(201).send({ hash: upload.url, url: upload.url, cid: upload.cid });
    },
  );

  app.post(
    '/ipfs/v2/file/metadata',
    {
      bodyLimit: METADATA_BODY_LIMIT,
      preValidation: async (request) => dropNullOptionals(request.body),
      schema: {
        tags,
        summary: 'Upload NFT metadata to IPFS',
        description:
          'Stores the document as a JSON file and answers its gateway URL (`IpfsHash`, also `ipfsHash`), ' +
          'its length in bytes (`PinSize`, also `pinSize`) and the time (`Timestamp`, also `timestamp`).',
        body: MetadataDocumentBody,
        response: { 201: MetadataAnswer, ...errorResponses(['CG_ERR_VALIDATION']) },
      },
    },
    async (request, reply) => {
      const stored = await uploadMetadata(app.ipfs, {
        application: applicationOf(request),
        document: request.body as MetadataDocument,
      });
      return reply.status(201).send({
        IpfsHash: stored.url,
        PinSize: stored.pinSize,
        Timestamp: stored.timestamp,
        ipfsHash: stored.url,
        pinSize: stored.pinSize,
        timestamp: stored.timestamp,
        cid: stored.cid,
      });
    },
  );

  app.get(
    '/ipfs/v2/files',
    {
      schema: {
        tags,
        summary: 'List the application’s uploads',
        description: 'Newest first, one page at a time. Only the calling application’s uploads.',
        querystring: UploadPageQuery,
        response: { 200: UploadPage, ...errorResponses([]) },
      },
    },
    async (request) =>
      listUploads(app.ipfs, {
        application: applicationOf(request),
        page: request.query.page,
        pageSize: request.query.pageSize,
      }),
  );

  app.delete(
    '/ipfs/v2/files/:cid',
    {
      schema: {
        tags,
        summary: 'Unpin an upload',
        description:
          'Removes the calling application’s uploads of the CID (404 when it has none). Once no ' +
          'application holds the CID it is unpinned and its blocks are deleted, except blocks another ' +
          'stored DAG shares. Any CID form is accepted.',
        params: CidParams,
        response: { 200: UnpinAnswer, ...errorResponses(['CG_ERR_NOT_FOUND']) },
      },
    },
    async (request) =>
      unpinUpload(app.ipfs, { application: applicationOf(request), cid: request.params.cid }),
  );
}
