import { describe, expect, it } from 'vitest';
import { BoundedLog } from './bounded-log.ts';

describe('BoundedLog', () => {
  it('keeps everything under the limits', () => {
    const log = new BoundedLog({ headBytes: 10, tailBytes: 10 });
    log.write('hello ');
    log.write(Buffer.from('world'));
    expect(log.text()).toBe('hello world');
  });

  it('keeps the head and the tail of a long output and says how much it left out', () => {
    const log = new BoundedLog({ headBytes: 4, tailBytes: 6 });
    for (let i = 0; i < 1000; i++) log.write(`line ${i}\n`);
    const text = log.text();
    expect(text.startsWith('line')).toBe(true);
    expect(text.endsWith('e 999\n')).toBe(true);
    const total = Array.from({ length: 1000 }, (_, i) => `line ${i}\n`).join('').length;
    expect(text).toContain(`[… ${total - 10} bytes of output left out …]`);
  });

  it('replaces NUL characters, which PostgreSQL text refuses', () => {
    const log = new BoundedLog({ headBytes: 10, tailBytes: 10 });
    log.write(Buffer.from([0x61, 0x00, 0x62]));
    expect(log.text()).toBe('a\uFFFDb');
  });
});
