import { finished } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { ChaingateError } from '../errors/chaingate-error.ts';
import type { FormPart } from './upload-form.ts';

/**
 * The multipart parts of a request, as `readUploadForm` reads them; the file part streams. `expected`
 * names the fields in the 415 answered to a request that is not multipart.
 */
export async function* formParts(
  request: FastifyRequest,
  maxBytes: number,
  expected: string,
): AsyncGenerator<FormPart> {
  if (!request.isMultipart()) {
    throw new ChaingateError('CG_ERR_UNSUPPORTED_MEDIA_TYPE', `send multipart/form-data with ${expected}`);
  }
  const parts = request.parts({
    // One byte over the limit tells the service the upload is too large; the parser discards the rest.
    limits: { fileSize: maxBytes + 1, files: 4, fields: 16, fieldSize: 4096, parts: 24 },
    // Per call, whatever the scope registered: the limit is checked while streaming, not thrown by the
    // parser mid-request. @fastify/multipart reads this option per call; its types omit it.
    ...({ throwFileSizeLimit: false } as object),
  });
  for await (const part of parts) {
    if (part.type === 'field') {
      yield {
        kind: 'field',
        name: part.fieldname,
        value: String(part.value),
        truncated: part.valueTruncated,
      };
      continue;
    }
    const stream = part.file;
    yield {
      kind: 'file',
      name: part.fieldname,
      filename: part.filename || undefined,
      // Not destroyed when the reader stops early: `drain` still has to read the rest.
      content: stream.iterator({ destroyOnReturn: false }),
      drain: async () => {
        stream.resume();
        await finished(stream);
      },
      truncated: () => stream.truncated,
    };
  }
}
