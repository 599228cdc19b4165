import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Application } from '../../../applications/applications.service.ts';
import { ChaingateError } from '../../../platform/errors/chaingate-error.ts';
import { type FormPart, readUploadForm } from '../../../platform/uploads/upload-form.ts';
import { insertBuild } from '../builds.repository.ts';
import { projectLimits, type SorobanBuildsContext } from '../builds-context.ts';
import { detectContracts } from '../cargo-project.ts';
import { unpackProject } from '../project-archive.ts';
import { toolchainProblem } from '../toolchain-check.ts';

export type UploadProjectParameters = { application: Application; form: AsyncIterable<FormPart> };
export type UploadProjectReturnType = { filename: string; contracts: string[] };

/** A unique name that keeps a readable trace of the uploaded file's name. */
function projectFilename(uploaded: string | undefined): string {
  const stem = (uploaded ?? '')
    .replace(/^.*[\\/]/, '')
    .replace(/\.zip$/i, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 40);
  return `${stem || 'project'}-${randomBytes(6).toString('hex')}.zip`;
}

/**
 * `POST /stellar/v1/contract/upload`: takes a zip of a Cargo project's contents, unpacks it in a
 * private temporary folder with the shared zip rules (a zip bomb, `..`, an absolute path or a symbolic
 * link is a 400), detects its contracts from the workspace members, and queues it for compilation.
 * The zip is kept in the store until its build ends, so a restart loses no queued build.
 */
export async function uploadProject(
  context: SorobanBuildsContext,
  parameters: UploadProjectParameters,
): Promise<UploadProjectReturnType> {
  const settings = context.platform.config.stellar.build;
  const work = await mkdtemp(join(tmpdir(), 'chaingate-upload-'));
  try {
    const zipPath = join(work, 'project.zip');
    const read = await readUploadForm<{ filename: string | undefined }>({
      form: parameters.form,
      fields: [],
      maxBytes: settings.maxUploadBytes,
      onFile: async (content, filename) => {
        await pipeline(Readable.from(content), createWriteStream(zipPath, { mode: 0o600 }));
        return { filename };
      },
      discard: async () => undefined,
    });
    const projectDir = join(work, 'project');
    await mkdir(projectDir, { mode: 0o700 });
    const tree = await unpackProject(zipPath, projectDir, projectLimits(settings.maxUploadBytes));
    const contracts = await detectContracts(projectDir, tree);
    const problem = await toolchainProblem(settings);
    if (problem) throw new ChaingateError('CG_ERR_STELLAR_BUILD_UNAVAILABLE', problem);
    const filename = projectFilename(read.file.filename);
    await insertBuild(context.platform.db, {
      filename,
      applicationId: parameters.application.id,
      zip: await readFile(zipPath),
      contracts,
    });
    context.kick();
    return { filename, contracts: contracts.map((contract) => contract.name) };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
