export type PollLoop = {
  /** Stops the loop and waits for a tick under way to end. */
  stop(): Promise<void>;
  /** Runs a tick as soon as the current one (if any) ends, without waiting for the interval. */
  kick(): void;
};

export type PollLoopOptions = {
  intervalMs: number;
  /** `first` is true for the first tick after start (recovery work). */
  tick(first: boolean): Promise<void>;
  onError(error: unknown): void;
};

/**
 * Runs `tick` every `intervalMs`, never two at once: a tick that takes longer than the interval delays
 * the next one instead of overlapping it. Used by the EVM and Stellar transaction trackers.
 */
export function startPollLoop(options: PollLoopOptions): PollLoop {
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  let first = true;
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    const isFirst = first;
    first = false;
    running = options
      .tick(isFirst)
      .catch((error: unknown) => {
        if (!stopped) options.onError(error);
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  };
  const timer = setInterval(run, options.intervalMs);
  return {
    kick: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
