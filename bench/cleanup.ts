/** Undo steps run last-in first-out, once, whether the bench finished, failed or was interrupted. */
export class Cleanup {
  readonly #steps: Array<{ name: string; run: () => Promise<void> | void }> = [];
  #done: Promise<void> | undefined;

  add(name: string, run: () => Promise<void> | void): void {
    this.#steps.push({ name, run });
  }

  run(): Promise<void> {
    this.#done ??= (async () => {
      for (const step of this.#steps.reverse()) {
        const started = Date.now();
        try {
          await step.run();
          // Slow steps are worth seeing: a stop that hangs is a finding in itself.
          if (Date.now() - started > 2_000) {
            process.stderr.write(`cleanup: ${step.name} took ${Date.now() - started} ms\n`);
          }
        } catch (error) {
          process.stderr.write(`cleanup: ${step.name} failed: ${(error as Error).message}\n`);
        }
      }
    })();
    return this.#done;
  }
}
