import { expect, it } from 'vitest';
import { keepTickObjectShape } from './tick-object-shape.ts';

it('keeps a tick object of process.nextTick: the symbol-keyed literal whose classes must stay alive', async () => {
  const kept = await keepTickObjectShape();
  const symbols = Object.getOwnPropertySymbols(kept).map((symbol) => symbol.description);
  // Node 24 adds its async context frame as a third symbol.
  expect(symbols.slice(0, 2)).toEqual(['async_id_symbol', 'trigger_async_id_symbol']);
  expect(Object.keys(kept)).toEqual(['callback', 'args']);
  expect(typeof (kept as { callback: unknown }).callback).toBe('function');
  // Once kept, the same object is answered again: one per process.
  expect(await keepTickObjectShape()).toBe(kept);
});
