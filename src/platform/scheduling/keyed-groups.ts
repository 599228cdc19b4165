type Pending<Item, Result> = { item: Item; resolve(result: Result): void; reject(error: unknown): void };

/**
 * Serial work per key (a sender on a network), with concurrent requests grouped: while one group is
 * processed, the next requests queue up and are handed over together in the following one. The EVM
 * engine commits a group's nonces in one database transaction; the Stellar engine allocates a group's
 * sequence numbers and submits the group in sequence order. `exclusive` runs other work for the key
 * (a tracker re-submitting stored transactions) between groups, never beside one.
 */
export class KeyedGroups<Item, Result> {
  readonly #queues = new Map<string, Array<Pending<Item, Result>>>();
  readonly #scheduled = new Set<string>();
  readonly #tails = new Map<string, Promise<unknown>>();

  constructor(
    private readonly process: (key: string, items: Item[]) => Promise<Result[]>,
    private readonly maxGroup = 200,
  ) {}

  run(key: string, item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      const queue = this.#queues.get(key) ?? [];
      queue.push({ item, resolve, reject });
      this.#queues.set(key, queue);
      if (!this.#scheduled.has(key)) {
        this.#scheduled.add(key);
        void this.exclusive(key, () => this.#drain(key));
      }
    });
  }

  /** Runs `work` alone for `key`: after the groups queued before it, before those queued after. */
  exclusive<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return next;
  }

  async #drain(key: string): Promise<void> {
    const queue = this.#queues.get(key) ?? [];
    const group = queue.splice(0, this.maxGroup);
    if (queue.length === 0) {
      this.#queues.delete(key);
      this.#scheduled.delete(key);
    } else {
      // More than one group's worth waiting: the rest goes in the next turn, after this one.
      void this.exclusive(key, () => this.#drain(key));
    }
    if (group.length === 0) return;
    try {
      const results = await this.process(
        key,
        group.map((pending) => pending.item),
      );
      for (const [index, pending] of group.entries()) pending.resolve(results[index] as Result);
    } catch (error) {
      for (const pending of group) pending.reject(error);
    }
  }
}
