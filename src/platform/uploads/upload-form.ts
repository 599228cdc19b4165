import { ChaingateError, quote } from '../errors/chaingate-error.ts';
import { limitBytes, uploadTooLarge } from './upload-limit.ts';

/** One part of a multipart upload, as the routes hand it over. */
export type FormPart =
  | { kind: 'field'; name: string; value: string; truncated: boolean }
  | {
      kind: 'file';
      name: string;
      /** The file name of the part's Content-Disposition, if any. */
      filename: string | undefined;
      content: AsyncIterable<Uint8Array>;
      /** Reads what is left of the part and throws it away (the next part is behind it). */
      drain(): Promise<void>;
      /** True when the parser cut the part at its size limit. */
      truncated(): boolean;
    };

export type ReadUploadFormParameters<T> = {
  form: AsyncIterable<FormPart>;
  /** Text fields the endpoint takes, and which of them it requires. */
  fields: { name: string; required: boolean }[];
  maxBytes: number;
  /** Consumes the `file` part's bytes (cut at `maxBytes`). */
  onFile(content: AsyncIterable<Uint8Array>, filename: string | undefined): Promise<T>;
  /** Undoes `onFile`'s work when the request is refused after it. */
  discard(result: T): Promise<void>;
};

export type ReadUploadFormReturnType<T> = { fields: Map<string, string>; file: T };

const MAX_FIELD_LENGTH = 1024;

/**
 * Reads a multipart upload to its end: the `file` part streams into `onFile` while it arrives; the
 * text fields may come before or after it. A refused request (over the limit, a missing or unknown
 * field) is read to its end anyway, so the client gets the answer instead of a reset connection, and
 * whatever `onFile` made is discarded.
 */
export async function readUploadForm<T>(
  parameters: ReadUploadFormParameters<T>,
): Promise<ReadUploadFormReturnType<T>> {
  const fields = new Map<string, string>();
  const known = new Set(parameters.fields.map((field) => field.name));
  let file: { result: T } | undefined;
  let failure: unknown;
  const refuse = (error: unknown) => {
    failure ??= error;
  };
  try {
    for await (const part of parameters.form) {
      if (part.kind === 'field') {
        if (!known.has(part.name)) refuse(badField(`unknown field ${quote(part.name)}`));
        else if (fields.has(part.name)) refuse(badField(`field '${part.name}' is given twice`));
        else if (part.truncated || part.value.length > MAX_FIELD_LENGTH)
          refuse(badField(`field '${part.name}' is longer than ${MAX_FIELD_LENGTH} characters`));
        else fields.set(part.name, part.value);
        continue;
      }
      if (part.name !== 'file') {
        refuse(badField(`unknown file field ${quote(part.name)}: send the file as 'file'`));
        await part.drain();
        continue;
      }
      if (file || failure) {
        if (file) refuse(badField("field 'file' is given twice"));
        await part.drain();
        continue;
      }
      try {
        file = {
          result: await parameters.onFile(limitBytes(part.content, parameters.maxBytes), part.filename),
        };
        if (part.truncated()) refuse(uploadTooLarge(parameters.maxBytes));
      } catch (error) {
        refuse(error);
        await part.drain();
      }
    }
  } catch (error) {
    refuse(error);
  }
  const missing = [
    ...parameters.fields
      .filter((field) => field.required && !fields.get(field.name))
      .map((field) => field.name),
    ...(file || failure ? [] : ['file']),
  ];
  if (!failure && missing.length > 0) {
    refuse(
      new ChaingateError(
        'CG_ERR_VALIDATION',
        `body: missing required field${missing.length > 1 ? 's' : ''} '${missing.join("', '")}'`,
        { context: { missing } },
      ),
    );
  }
  if (failure) {
    if (file) await parameters.discard(file.result);
    throw failure;
  }
  return { fields, file: (file as { result: T }).result };
}

function badField(message: string): ChaingateError {
  return new ChaingateError('CG_ERR_VALIDATION', `body: ${message}`);
}
