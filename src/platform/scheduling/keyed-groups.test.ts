import { describe, expect, it } from 'vitest';
import { KeyedGroups } from './keyed-groups.ts';

describe('KeyedGroups', () => {
  it('groups what queues up while a group runs (calls of one tick start together), keeps order, runs keys apart', async () => {
    const groups: Array<[string, number[]]> = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const lanes = new KeyedGroups<number, number>(async (key, items) => {
      groups.push([key, items]);
      if (groups.length === 1) await gate;
      return items.map((item) => item * 10);
    });
    const first = lanes.run('a', 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const queued = [lanes.run('a', 2), lanes.run('a', 3), lanes.run('b', 4)];
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    expect(await Promise.all([first, ...queued])).toEqual([10, 20, 30, 40]);
    expect(groups).toEqual([
      ['a', [1]],
      ['b', [4]],
      ['a', [2, 3]],
    ]);
  });

  it('runs exclusive work between groups of its key, and rejects a whole failed group', async () => {
    const order: string[] = [];
    const lanes = new KeyedGroups<number, number>(async (_key, items) => {
      order.push(`group ${items.join(',')}`);
      if (items.includes(9)) throw new Error('boom');
      return items;
    });
    const a = lanes.run('k', 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const exclusive = lanes.exclusive('k', async () => {
      order.push('exclusive');
      return 'done';
    });
    const b = lanes.run('k', 9);
    expect(await a).toBe(1);
    expect(await exclusive).toBe('done');
    await expect(b).rejects.toThrow('boom');
    expect(order).toEqual(['group 1', 'exclusive', 'group 9']);
  });
});
