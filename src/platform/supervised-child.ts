import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

/** Restarts closer together than this count as a crash loop: after the first, each waits twice as long. */
const QUIET_MS = 30_000;
const MAX_DELAY_MS = 30_000;

export type SupervisedChild = {
  /** The running child: another one after each restart. */
  readonly child: ChildProcess;
  /**
   * No restart from now on (takes effect at once, so a process `exit` handler may call it); the promise
   * waits for a start under way, so that `child` then names the last process started.
   */
  stopRestarts(): Promise<void>;
};

/**
 * Keeps an embedded dependency (the devnet's anvil, the embedded PostgreSQL) running: when its process
 * exits while nobody stopped it (killed, out of memory), it is started again with `start`, which must
 * resolve once the new one serves. A start that fails is tried again. The first restart is at once;
 * those that follow within 30 s of the last start wait 1, 2, 4 … up to 30 s, so a dependency that cannot
 * run does not take the CPU with it.
 */
export function superviseChild(
  first: ChildProcess,
  options: { name: string; start: () => Promise<ChildProcess>; log: (line: string) => void },
): SupervisedChild {
  const { name, log } = options;
  const stopped = new AbortController();
  let child = first;
  let restarting: Promise<void> = Promise.resolve();
  let lastStart = Date.now();
  let quickRestarts = 0;

  const restart = async (): Promise<void> => {
    while (!stopped.signal.aborted) {
      quickRestarts = Date.now() - lastStart < QUIET_MS ? quickRestarts + 1 : 0;
      if (quickRestarts > 1) {
        const delay = Math.min(MAX_DELAY_MS, 1000 * 2 ** (quickRestarts - 2));
        const waited = await sleep(delay, true, { signal: stopped.signal }).catch(() => false);
        if (!waited) return;
      }
      lastStart = Date.now();
      try {
        child = await options.start();
        watch(child);
        log(`${name} started again (pid ${child.pid})`);
        return;
      } catch (error) {
        log(`${name} did not start again: ${(error as Error).message}`);
      }
    }
  };
  const watch = (running: ChildProcess) =>
    running.once('exit', (code, signal) => {
      if (stopped.signal.aborted) return;
      log(`${name} exited on its own (${signal ?? `code ${code}`}); starting it again`);
      restarting = restart();
    });
  watch(first);

  return {
    get child() {
      return child;
    },
    stopRestarts() {
      stopped.abort();
      return restarting;
    },
  };
}
