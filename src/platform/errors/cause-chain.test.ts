import { describe, expect, it } from 'vitest';
import { findInCauseChain } from './cause-chain.ts';

describe('findInCauseChain', () => {
  it('answers the first of the error and its causes that matches, outermost first', () => {
    const inner = Object.assign(new Error('inner'), { code: 7 });
    const middle = new Error('middle', { cause: Object.assign(new Error('deeper'), { cause: inner }) });
    const outer = Object.assign(new Error('outer', { cause: middle }), { code: 3 });
    expect(findInCauseChain(outer, ({ code }) => typeof code === 'number')).toBe(outer);
    expect(findInCauseChain(outer, ({ code }) => code === 7)).toBe(inner);
    expect(findInCauseChain(outer, ({ code }) => code === 8)).toBeUndefined();
  });

  it('stops after maxDepth links, so a cause cycle cannot hang', () => {
    const looped: { cause?: unknown; name: string } = { name: 'a' };
    looped.cause = looped;
    let visited = 0;
    expect(findInCauseChain(looped, () => ++visited > 100, 5)).toBeUndefined();
    expect(visited).toBe(5);
  });
});
