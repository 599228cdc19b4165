import { describe, expect, it } from 'vitest';
import { KeyedLock, SerialLock } from './serial-lock.ts';

function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('SerialLock', () => {
  it('runs sections one after another, in call order, past a failing one', async () => {
    const lock = new SerialLock();
    const order: string[] = [];
    const gate = deferred();
    const first = lock.run(async () => {
      order.push('first starts');
      await gate.promise;
      order.push('first ends');
    });
    const failing = lock.run(async () => {
      order.push('failing');
      throw new Error('boom');
    });
    const last = lock.run(async () => {
      order.push('last');
      return 42;
    });
    gate.resolve();
    await first;
    await expect(failing).rejects.toThrow('boom');
    expect(await last).toBe(42);
    expect(order).toEqual(['first starts', 'first ends', 'failing', 'last']);
  });
});

describe('KeyedLock', () => {
  it('serialises one key and lets other keys run alongside', async () => {
    const lock = new KeyedLock();
    const order: string[] = [];
    const gate = deferred();
    const a1 = lock.run('a', async () => {
      order.push('a1 starts');
      await gate.promise;
      order.push('a1 ends');
    });
    const a2 = lock.run('a', async () => {
      order.push('a2');
    });
    await lock.run('b', async () => {
      order.push('b');
    });
    expect(order).toEqual(['a1 starts', 'b']);
    gate.resolve();
    await Promise.all([a1, a2]);
    expect(order).toEqual(['a1 starts', 'b', 'a1 ends', 'a2']);
  });
});
