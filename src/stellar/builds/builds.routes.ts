import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { applicationOf } from '../../applications/application-auth.ts';
import { errorResponses } from '../../platform/http/error-body.ts';
import { formParts } from '../../platform/uploads/form-parts.ts';
import { BuildStatusAnswer, FilenameParams, UploadAnswer } from './builds.schemas.ts';
import type { SorobanBuildsContext } from './builds-context.ts';
import { buildStatus } from './services/build-status.ts';
import { uploadProject } from './services/upload-project.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Project upload and compilation: the platform, the Stellar context, the build worker's wake-up. */
    stellarBuilds: SorobanBuildsContext;
  }
}

const tags = ['stellar: contracts'];

/** `contract/upload` of document 3 and its status endpoint, under `/stellar/v1`. */
export async function buildRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/contract/upload',
    {
      schema: {
        tags,
        summary:
          'Upload a Soroban project (a zip of its contents); answers its contracts, compiled in the background',
        description:
          "`file` is a zip of the Cargo project's contents: Cargo.toml at the root of the zip (a zip of the folder " +
          'itself is a 400 that says so). The contracts are the packages of the project and its workspace members ' +
          'that build a cdylib. Zips with a path leaving the folder (`..`), an absolute path, a symbolic link, ' +
          'or contents over 4 times the upload limit are refused. Compilation to wasm32-unknown-unknown (release) ' +
          'runs in a sandbox without network (dependencies must be vendored in the zip), one build at a time; ' +
          'poll `GET /stellar/v1/contract/upload/{filename}/status` for the saved contract specs ids.',
        consumes: ['multipart/form-data'],
        body: Type.Object({
          file: Type.String({ format: 'binary', description: "a zip of the Cargo project's contents" }),
        }),
        response: {
          201: UploadAnswer,
          ...errorResponses(['CG_ERR_STELLAR_NOT_A_CARGO_PROJECT', 'CG_ERR_STELLAR_BUILD_UNAVAILABLE']),
        },
      },
      // The body is a multipart stream that the service reads and checks itself; the schema above
      // documents it for OpenAPI.
      validatorCompiler: () => () => true,
    },
    async (request, reply) => {
      const context = app.stellarBuilds;
      const answer = await uploadProject(context, {
        application: applicationOf(request),
        form: formParts(
          request,
          context.platform.config.stellar.build.maxUploadBytes,
          "the field 'file' (a zip)",
        ),
      });
      return reply.status(201).send(answer);
    },
  );

  app.get(
    '/contract/upload/:filename/status',
    {
      schema: {
        tags,
        summary: 'Compilation status of an uploaded project: queued, compiling, done or failed, with its log',
        description:
          'When done, each contract carries the contract specs id it was saved under (as `contract/save` answers), ' +
          "ready for deployment. Another application's project is a 404.",
        params: FilenameParams,
        response: {
          200: BuildStatusAnswer,
          ...errorResponses(['CG_ERR_NOT_FOUND']),
        },
      },
    },
    async (request) =>
      buildStatus(app.stellarBuilds, {
        application: applicationOf(request),
        filename: request.params.filename,
      }),
  );
}
