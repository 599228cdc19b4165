import { describe, expect, it } from 'vitest';
import { DELIVERY_WINDOW_MS, nextAttemptAt } from './retry-schedule.ts';

describe('nextAttemptAt', () => {
  const start = 1_000_000;
  const giveUp = start + DELIVERY_WINDOW_MS;

  it('backs off exponentially from 1 s, capped at an hour', () => {
    expect(
      [1, 2, 3, 4].map((attempts) => (nextAttemptAt(attempts, start, giveUp) as number) - start),
    ).toEqual([1000, 2000, 4000, 8000]);
    expect((nextAttemptAt(30, start, giveUp) as number) - start).toBe(60 * 60 * 1000);
  });

  it('lands the last retry on the end of the 24 h window, then gives up', () => {
    expect(nextAttemptAt(30, giveUp - 1000, giveUp)).toBe(giveUp);
    expect(nextAttemptAt(31, giveUp, giveUp)).toBeNull();
  });
});
