import type { Queryable } from '../../platform/db/database.ts';
import { markBroadcastMany } from './transactions.repository.ts';

type Waiting = { id: string; resolve(): void; reject(error: unknown): void };

/**
 * Records "the node accepted it" for the sends that finish in the same turn of the event loop with
 * one UPDATE: a burst of sends otherwise pays one statement each after its broadcast.
 */
export class BroadcastMarks {
  #waiting: Waiting[] = [];
  #scheduled = false;

  constructor(private readonly db: Queryable) {}

  accepted(id: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push({ id, resolve, reject });
      if (this.#scheduled) return;
      this.#scheduled = true;
      setImmediate(() => void this.#flush());
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#waiting;
    this.#waiting = [];
    this.#scheduled = false;
    try {
      await markBroadcastMany(
        this.db,
        batch.map((waiting) => waiting.id),
        true,
      );
      for (const waiting of batch) waiting.resolve();
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    }
  }
}
