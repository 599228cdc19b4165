import type { Application } from '../../../applications/applications.service.ts';
import { ChaingateError, quote } from '../../../platform/errors/chaingate-error.ts';
import { type BuildStatus, findApplicationBuild } from '../builds.repository.ts';
import type { SorobanBuildsContext } from '../builds-context.ts';

export type BuildStatusParameters = { application: Application; filename: string };

export type BuildStatusReturnType = {
  filename: string;
  status: BuildStatus;
  /** Each detected contract; its saved contract specs id once the build is done. */
  contracts: Array<{ name: string; contractSpecsId: number | null }>;
  log: string;
  reason: string | null;
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
};

/** `GET /stellar/v1/contract/upload/{filename}/status`: an uploaded project of the application. */
export async function buildStatus(
  context: SorobanBuildsContext,
  parameters: BuildStatusParameters,
): Promise<BuildStatusReturnType> {
  const row = await findApplicationBuild(context.platform.db, parameters.application.id, parameters.filename);
  if (!row) {
    throw new ChaingateError(
      'CG_ERR_NOT_FOUND',
      `filename: no uploaded project ${quote(parameters.filename)} for this application`,
    );
  }
  const saved = new Map((row.results ?? []).map((result) => [result.name, result.contractSpecsId]));
  return {
    filename: row.filename,
    status: row.status,
    contracts: row.contracts.map((contract) => ({
      name: contract.name,
      contractSpecsId: saved.get(contract.name) ?? null,
    })),
    log: row.log,
    reason: row.reason,
    attempts: row.attempts,
    createdAt: row.created_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}
