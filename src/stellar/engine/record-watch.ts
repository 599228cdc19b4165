/**
 * Lets a request wait for a record to finish (the deploy waits for its wasm upload, the TTL extension
 * for its ledger): whoever finishes a record calls `notify`; `wait` ends then, or after its timeout.
 */
export class RecordWatch {
  readonly #waiters = new Map<string, Array<() => void>>();

  wait(id: string, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        const list = this.#waiters.get(id)?.filter((waiter) => waiter !== done) ?? [];
        if (list.length > 0) this.#waiters.set(id, list);
        else this.#waiters.delete(id);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#waiters.set(id, [...(this.#waiters.get(id) ?? []), done]);
    });
  }

  notify(id: string): void {
    for (const waiter of this.#waiters.get(id) ?? []) waiter();
  }
}
