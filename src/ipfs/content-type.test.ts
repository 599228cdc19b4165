import { describe, expect, it } from 'vitest';
import { isActiveContent, sniffContentType } from './content-type.ts';

const bytes = (hex: string) => Buffer.from(hex, 'hex');
const text = (value: string) => new TextEncoder().encode(value);

describe('sniffContentType', () => {
  it.each([
    ['png', bytes('89504e470d0a1a0a0000000d49484452'), undefined, 'image/png'],
    ['jpeg', bytes('ffd8ffe000104a464946'), 'x.bin', 'image/jpeg'],
    ['gif', text('GIF89a....'), undefined, 'image/gif'],
    ['webp', Buffer.concat([text('RIFF'), bytes('00000000'), text('WEBPVP8 ')]), undefined, 'image/webp'],
    ['mp4', Buffer.concat([bytes('00000020'), text('ftypisom')]), undefined, 'video/mp4'],
    ['pdf', text('%PDF-1.7\n'), undefined, 'application/pdf'],
    [
      'svg',
      text('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
      undefined,
      'image/svg+xml',
    ],
    ['json', text('{"name":"x"}'), undefined, 'application/json'],
    ['json by name', text('[1,2]'), 'a.json', 'application/json'],
    ['text', text('hello world\n'), undefined, 'text/plain; charset=utf-8'],
    ['markdown by name', text('# title'), 'README.md', 'text/markdown; charset=utf-8'],
    ['binary', bytes('000102030405'), undefined, 'application/octet-stream'],
    ['empty', new Uint8Array(), undefined, 'application/octet-stream'],
    ['empty text file', new Uint8Array(), 'notes.txt', 'text/plain; charset=utf-8'],
    ['magic beats the name', bytes('89504e470d0a1a0a'), 'picture.jpg', 'image/png'],
    ['text cut inside a character', text('été').subarray(0, 4), undefined, 'text/plain; charset=utf-8'],
  ])('%s', (_name, head, filename, expected) => {
    expect(sniffContentType(head, filename)).toBe(expected);
  });

  it('marks the types a browser runs script in', () => {
    expect(isActiveContent('text/html; charset=utf-8')).toBe(true);
    expect(isActiveContent('image/svg+xml')).toBe(true);
    expect(isActiveContent('image/png')).toBe(false);
    expect(isActiveContent('application/json')).toBe(false);
  });
});
