import { chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findApplicationById } from '../../../applications/applications.repository.ts';
import { toApplication } from '../../../applications/applications.service.ts';
import { ChaingateError } from '../../../platform/errors/chaingate-error.ts';
import { saveContract } from '../../services/contract-specs.ts';
import { MAX_WASM_BYTES } from '../../spec/wasm-module.ts';
import { failureReason } from '../build-failure.ts';
import { type BuildResult, type ClaimedBuild, finishBuild, requeueBuild } from '../builds.repository.ts';
import { projectLimits, type SorobanBuildsContext } from '../builds-context.ts';
import { unpackProject } from '../project-archive.ts';
import { SANDBOX_USER } from '../sandbox-command.ts';
import { runSandboxedBuild, type SandboxedBuildOutcome } from '../sandboxed-build.ts';

/** How a held build ended for this worker: finished (done or failed), given back, or taken by another. */
export type CompileProjectReturnType = 'finished' | 'interrupted' | 'lost';

/** A contract the build made that cannot be saved: the whole build fails and saves nothing. */
class UnsavableContract extends Error {
  override name = 'UnsavableContract';
}

class LostLease extends Error {
  override name = 'LostLease';
}

/** Saves every contract of a successful build and marks it done, in one database transaction. */
async function saveContracts(
  context: SorobanBuildsContext,
  build: ClaimedBuild,
  artifacts: Extract<SandboxedBuildOutcome, { kind: 'built' }>['artifacts'],
  log: string,
): Promise<void> {
  const row = await findApplicationById(context.platform.db, build.application_id);
  if (!row) throw new UnsavableContract('the application that uploaded the project no longer exists');
  const application = toApplication(row);
  await context.platform.db.transaction(async (tx) => {
    const results: BuildResult[] = [];
    for (const contract of build.contracts) {
      const wasm = artifacts.get(contract.library);
      if (!wasm)
        throw new UnsavableContract(`contract ${contract.name}: cargo wrote no ${contract.library}.wasm`);
      if (!Buffer.isBuffer(wasm)) {
        throw new UnsavableContract(
          `contract ${contract.name}: ${contract.library}.wasm is ${wasm.tooLarge} bytes, more than the ${MAX_WASM_BYTES} a contract may have`,
        );
      }
      try {
        const saved = await saveContract(context.stellar, {
          application,
          wasm,
          name: contract.name,
          description: `compiled from ${build.filename}`,
          db: tx,
        });
        results.push({ name: contract.name, contractSpecsId: saved.id });
      } catch (error) {
        if (error instanceof ChaingateError && error.code === 'CG_ERR_STELLAR_INVALID_WASM')
          throw new UnsavableContract(`contract ${contract.name}: ${error.message.replace(/^file: /, '')}`);
        throw error;
      }
    }
    const held = await finishBuild(tx, {
      filename: build.filename,
      attempt: build.attempts,
      status: 'done',
      results,
      log,
      reason: null,
    });
    if (!held) throw new LostLease();
  });
}

async function fail(
  context: SorobanBuildsContext,
  build: ClaimedBuild,
  log: string,
  reason: string,
): Promise<CompileProjectReturnType> {
  const held = await finishBuild(context.platform.db, {
    filename: build.filename,
    attempt: build.attempts,
    status: 'failed',
    results: null,
    log: `${log}${log === '' || log.endsWith('\n') ? '' : '\n'}chaingate: ${reason}\n`,
    reason,
  });
  return held ? 'finished' : 'lost';
}

/**
 * Compiles one held build: unpacks its zip into a private temporary folder owned by the sandbox's user,
 * runs cargo in the sandbox, and saves each contract (as `contract/save` does) with the build marked
 * done, or marks it failed with the reason at the end of its log. A shutdown gives the build back to
 * the queue. Store errors are thrown: the lease then lapses and the build is taken again.
 */
export async function compileProject(
  context: SorobanBuildsContext,
  build: ClaimedBuild,
  signal: AbortSignal,
): Promise<CompileProjectReturnType> {
  const settings = context.platform.config.stellar.build;
  const owner = process.getuid?.() === 0 ? SANDBOX_USER : undefined;
  const work = await mkdtemp(join(tmpdir(), 'chaingate-build-'));
  try {
    const zipPath = join(work, 'project.zip');
    await writeFile(zipPath, build.project_zip, { mode: 0o600 });
    const projectDir = join(work, 'project');
    await mkdir(projectDir, { mode: 0o700 });
    if (owner) {
      // The sandbox's user reaches its project through `work`, which nobody else may enter.
      await chown(work, owner.uid, owner.gid);
      await chown(projectDir, owner.uid, owner.gid);
    }
    try {
      await unpackProject(zipPath, projectDir, projectLimits(settings.maxUploadBytes), owner);
    } catch (error) {
      if (!(error instanceof ChaingateError)) throw error;
      return await fail(context, build, '', `the project no longer unpacks: ${error.message}`);
    }
    const { outcome, log } = await runSandboxedBuild(settings, {
      projectDir,
      contracts: build.contracts,
      signal,
    });
    if (outcome.kind === 'interrupted') {
      await requeueBuild(context.platform.db, build.filename, build.attempts);
      return 'interrupted';
    }
    if (outcome.kind !== 'built')
      return await fail(context, build, log, failureReason(outcome, log, settings));
    try {
      await saveContracts(context, build, outcome.artifacts, log);
      return 'finished';
    } catch (error) {
      if (error instanceof LostLease) return 'lost';
      if (error instanceof UnsavableContract) return await fail(context, build, log, error.message);
      throw error;
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
