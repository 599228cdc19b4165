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
