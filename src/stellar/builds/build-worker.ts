import type { FastifyBaseLogger } from 'fastify';
import { type PollLoop, startPollLoop } from '../../platform/scheduling/poll-loop.ts';
import { claimNextBuild, finishBuild, renewBuildLease } from './builds.repository.ts';
import type { SorobanBuildsContext } from './builds-context.ts';
import { compileProject } from './services/compile-project.ts';

/** A held build's lease; renewed every third of it, so only a dead worker lets it lapse. */
const LEASE_SECONDS = 30;
/** Builds taken this many times without ending (the service stopped or died during them) are failed. */
const MAX_ATTEMPTS = 3;
/** Another process's uploads and lapsed leases are noticed within this. */
const POLL_MS = 5_000;

/**
 * Compiles queued projects one at a time (a build uses the machine's cores). The queue lives in the
 * store: a build queued before a restart is compiled after it, and with several processes on one
 * PostgreSQL server each build is taken by one of them.
 */
export class BuildWorker {
  readonly #context: Omit<SorobanBuildsContext, 'kick'>;
  readonly #logger: FastifyBaseLogger;
  readonly #abort = new AbortController();
  #loop: PollLoop | undefined;

  constructor(context: Omit<SorobanBuildsContext, 'kick'>, logger: FastifyBaseLogger) {
    this.#context = context;
    this.#logger = logger;
  }

  start(): void {
    this.#loop = startPollLoop({
      intervalMs: POLL_MS,
      tick: () => this.#drain(),
      onError: (error) => this.#logger.error({ err: error }, 'soroban build worker failed'),
    });
    this.#loop.kick();
  }

  kick(): void {
    this.#loop?.kick();
  }

  /** Kills the build under way (it goes back to the queue) and waits for the worker to stop. */
  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#loop?.stop();
  }

  async #drain(): Promise<void> {
    const db = this.#context.platform.db;
    while (!this.#abort.signal.aborted) {
      const build = await claimNextBuild(db, LEASE_SECONDS);
      if (!build) return;
      if (build.attempts > MAX_ATTEMPTS) {
        const reason = `the build was interrupted ${MAX_ATTEMPTS} times (the service stopped or died during it)`;
        await finishBuild(db, {
          filename: build.filename,
          attempt: build.attempts,
          status: 'failed',
          results: null,
          log: `chaingate: ${reason}\n`,
          reason,
        });
        continue;
      }
      const renew = setInterval(
        () => {
          renewBuildLease(db, build.filename, build.attempts, LEASE_SECONDS).catch((error: unknown) =>
            this.#logger.warn({ err: error, filename: build.filename }, 'soroban build lease not renewed'),
          );
        },
        (LEASE_SECONDS * 1000) / 3,
      );
      try {
        const ended = await compileProject(
          { ...this.#context, kick: () => this.kick() },
          build,
          this.#abort.signal,
        );
        this.#logger.info({ filename: build.filename, ended }, 'soroban build ended');
      } finally {
        clearInterval(renew);
      }
    }
  }
}
