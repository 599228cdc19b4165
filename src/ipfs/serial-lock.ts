/**
 * Runs critical sections one after another, in call order. The block store's commit and garbage
 * collection take it, so a block that an upload is committing is never swept by a concurrent unpin.
 */
export class SerialLock {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(section: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(section, section);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}

/**
 * One `SerialLock` per key, dropped when idle: sections on the same key run one after another, sections
 * on different keys at once.
 */
export class KeyedLock {
  readonly #locks = new Map<string, { lock: SerialLock; users: number }>();

  async run<T>(key: string, section: () => Promise<T>): Promise<T> {
    let entry = this.#locks.get(key);
    if (!entry) {
      entry = { lock: new SerialLock(), users: 0 };
      this.#locks.set(key, entry);
    }
    entry.users++;
    try {
      return await entry.lock.run(section);
    } finally {
      entry.users--;
      if (entry.users === 0) this.#locks.delete(key);
    }
  }
}
