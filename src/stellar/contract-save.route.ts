import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { applicationOf } from '../applications/application-auth.ts';
import { ChaingateError } from '../platform/errors/chaingate-error.ts';
import { errorResponses } from '../platform/http/error-body.ts';
import { saveContract } from './services/contract-specs.ts';
import { MAX_WASM_BYTES } from './spec/wasm-module.ts';

const MAX_NAME = 200;
const MAX_DESCRIPTION = 2000;

type SaveForm = { file: Buffer; name: string; description: string };

function badForm(message: string): ChaingateError {
  return new ChaingateError('CG_ERR_BAD_REQUEST', message);
}

/** Reads the multipart form by hand: one `file`, a `name`, an optional `description`, nothing else. */
async function readSaveForm(request: FastifyRequest): Promise<SaveForm> {
  if (!request.isMultipart()) {
    throw new ChaingateError(
      'CG_ERR_UNSUPPORTED_MEDIA_TYPE',
      'send multipart/form-data with the fields file, name and description',
    );
  }
  let file: Buffer | undefined;
  const fields = new Map<string, string>();
  try {
    for await (const part of request.parts({
      limits: {
        fileSize: MAX_WASM_BYTES,
        files: 1,
        fields: 10,
        parts: 12,
        fieldSize: 4096,
        fieldNameSize: 100,
      },
    })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file')
          throw badForm(`${part.fieldname}: unexpected file; send the wasm as file`);
        if (file) throw badForm('file: send one file');
        file = await part.toBuffer();
      } else {
        if (!['name', 'description', 'file'].includes(part.fieldname))
          throw badForm(`unknown field '${part.fieldname.slice(0, 40)}' (file, name, description)`);
        if (part.fieldname === 'file') throw badForm('file: must be a file (the compiled .wasm)');
        if (fields.has(part.fieldname)) throw badForm(`${part.fieldname}: given twice`);
        fields.set(part.fieldname, String(part.value));
      }
    }
  } catch (error) {
    if (error instanceof ChaingateError) throw error;
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) throw error;
    throw badForm('body: malformed multipart/form-data');
  }
  if (!file || file.length === 0) throw badForm("body: missing required field 'file' (the compiled .wasm)");
  const name = fields.get('name')?.trim();
  if (!name) throw badForm("body: missing required field 'name'");
  if (name.length > MAX_NAME) throw badForm(`name: at most ${MAX_NAME} characters`);
  const description = fields.get('description') ?? '';
  if (description.length > MAX_DESCRIPTION)
    throw badForm(`description: at most ${MAX_DESCRIPTION} characters`);
  return { file, name, description };
}

export async function contractSaveRoute(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/contract/save',
    {
      schema: {
        tags: ['stellar: contracts'],
        summary: 'Save a compiled contract (.wasm); answers its contract specs id',
        description:
          `The wasm is validated: the WebAssembly magic and framing, WebAssembly validation, and a contractspecv0 ` +
          `section (soroban-sdk writes it) that declares at least one function. At most ${MAX_WASM_BYTES} bytes. ` +
          'A saved contract is visible to the saving application only.',
        consumes: ['multipart/form-data'],
        body: Type.Object({
          file: Type.String({ format: 'binary', description: 'the compiled contract (.wasm)' }),
          name: Type.String({ minLength: 1, maxLength: MAX_NAME }),
          description: Type.Optional(Type.String({ maxLength: MAX_DESCRIPTION })),
        }),
        response: {
          201: Type.Object({ id: Type.Integer({ description: 'contract specs id' }) }),
          ...errorResponses(['CG_ERR_STELLAR_INVALID_WASM']),
        },
      },
      // The body is a multipart stream that the handler reads and checks itself; the schema above
      // documents it for OpenAPI.
      validatorCompiler: () => () => true,
    },
    async (request, reply) => {
      const form = await readSaveForm(request);
      const saved = await saveContract(app.stellar, {
        application: applicationOf(request),
        wasm: form.file,
        name: form.name,
        description: form.description,
      });
      return reply.status(201).send(saved);
    },
  );
}
