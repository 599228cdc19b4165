import { Type } from 'typebox';

export const UploadAnswer = Type.Object({
  filename: Type.String({
    description: 'unique name of the uploaded project; its status is at …/upload/{filename}/status',
  }),
  contracts: Type.Array(Type.String(), {
    description:
      'names of the contracts detected (the packages of the project and its workspace members that build a cdylib)',
  }),
});

export const FilenameParams = Type.Object({
  filename: Type.String({
    pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$',
    description: 'the `filename` the upload answered',
  }),
});

const nullableText = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const BuildStatusAnswer = Type.Object({
  filename: Type.String(),
  status: Type.String({
    enum: ['queued', 'compiling', 'done', 'failed'],
    description:
      'queued (waiting for the worker), compiling, done (every contract saved) or failed (see reason and log)',
  }),
  contracts: Type.Array(
    Type.Object({
      name: Type.String({ description: 'contract (package) name' }),
      contractSpecsId: Type.Union([Type.Integer(), Type.Null()], {
        description: 'the saved contract specs id, for deployment/methods; null until the build is done',
      }),
    }),
  ),
  log: Type.String({
    description:
      "cargo's output and the build scripts' (its beginning and end when long); a failure ends with a `chaingate:` line saying why",
  }),
  reason: nullableText('why the build failed, one line; null unless failed'),
  attempts: Type.Integer({
    description: 'times a worker took the build (a restart during a build takes it again)',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  startedAt: nullableText('when the last attempt started'),
  finishedAt: nullableText('when the build ended'),
});
