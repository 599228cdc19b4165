import { describe, expect, it } from 'vitest';
import { type DirectoryEntryInput, importDirectoryEntries, importFileContent } from './unixfs-import.ts';

/*
 * Published CIDs of `ipfs add` on a default Kubo/go-ipfs node (CIDv0, 256 KiB chunks, balanced DAG, no
 * raw leaves). Sources:
 * - Kubo test/sharness/t0040-add-and-cat.sh: "Hello Worlds!\n", the zero-length file, `add -r` of
 *   planets/ and `add -rn` of moons/.
 * - Kubo test/sharness/t0114-gateway-subdomains/README.md: "hello\n" (CID_VAL) and its CIDv1 form.
 * - Solidity test/libsolutil/IpfsHash.cpp (checked against go-ipfs): runs of zero bytes from one byte to
 *   a two-level tree (more than 174 chunks).
 * - The issue: "hello world\n".
 */
const text = (value: string) => new TextEncoder().encode(value);

async function* chunked(bytes: Uint8Array, size = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** Zero bytes as a stream, without holding them all (the 46 MB vectors). */
async function* zeros(length: number): AsyncGenerator<Uint8Array> {
  const block = new Uint8Array(1024 * 1024);
  for (let left = length; left > 0; left -= block.length)
    yield block.subarray(0, Math.min(left, block.length));
}

/** Counts the blocks the importer writes, keeping none. */
function countingStore() {
  const keys = new Set<string>();
  return {
    keys,
    put: async (cid: { toString(): string }) => {
      keys.add(cid.toString());
      return cid;
    },
  };
}

async function cidOf(content: AsyncIterable<Uint8Array>) {
  const store = countingStore();
  const dag = await importFileContent(content, store as never);
  return { cid: dag.cid.toString(), bytes: dag.bytes, blocks: store.keys.size };
}

describe('CIDs equal to `ipfs add` on a default Kubo node', () => {
  it.each([
    ['hello world\\n (the issue)', text('hello world\n'), 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o'],
    [
      'Hello Worlds!\\n (Kubo t0040)',
      text('Hello Worlds!\n'),
      'QmVr26fY1tKyspEJBniVhqxQeEjhF78XerGiqWAwraVLQH',
    ],
    ['hello\\n (Kubo t0114)', text('hello\n'), 'QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN'],
    ['an empty file (Kubo t0040)', new Uint8Array(), 'QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH'],
    ['x (Solidity)', text('x'), 'QmULKig5Fxrs2sC4qt9nNduucXfb92AFYQ6Hi3YRqDmrYC'],
    ['Solidity\\n (Solidity)', text('Solidity\n'), 'QmSsm9M7PQRBnyiz1smizk8hZw3URfk8fSeHzeTo3oZidS'],
    ['200 zero bytes (Solidity)', new Uint8Array(200), 'QmSXR1N23uWzsANi8wpxMPw5dmmhqBVUAb4hUrHVLpNaMr'],
    [
      '256 KiB − 1 zeros: the largest single chunk',
      new Uint8Array(262143),
      'QmbNDspMkzkMFKyS3eCJGedG7GWRQHSCzJCZLjxP7wyVAx',
    ],
    [
      '256 KiB + 1 zeros: the smallest two-chunk file',
      new Uint8Array(262145),
      'QmbVuw4C4vcmVKqxoWtgDVobvcHrSn51qsmQmyxjk4sB2Q',
    ],
    [
      '1,310,710 zeros: five chunks',
      new Uint8Array(1310710),
      'QmNg7BJo8gEMDK8yGQbHEwPtycesnE6FUULX5iVd5TAL9f',
    ],
  ])('%s', async (_name, bytes, expected) => {
    const result = await cidOf(chunked(bytes, 10_000));
    expect(result.cid).toBe(expected);
    expect(result.bytes).toBe(bytes.length);
  });

  it.each([
    [
      '174 × 256 KiB zeros: the largest one-level tree',
      45613056,
      'QmY4HSz1oVGdUzb8poVYPLsoqBZjH6LZrtgnme9wWn2Qko',
    ],
    [
      '174 × 256 KiB + 1 zeros: the smallest two-level tree',
      45613057,
      'QmehMASWcBsX7VcEQqs6rpR5AHoBfKyBVEgmkJHjpPg8jq',
    ],
    ['46,661,632 zeros: a two-level tree', 46661632, 'QmaTb1sT9hrSXJLmf8bxJ9NuwndiHuMLsgNLgkS2eXu3Xj'],
  ])('%s', async (_name, length, expected) => {
    expect((await cidOf(zeros(length))).cid).toBe(expected);
  });

  it('does not depend on how the stream is cut', async () => {
    const bytes = new Uint8Array(700_000).map((_, index) => (index * 7) % 251);
    const whole = await cidOf(chunked(bytes, bytes.length));
    for (const size of [4096, 262144, 300_001]) {
      expect((await cidOf(chunked(bytes, size))).cid).toBe(whole.cid);
    }
    expect(whole.blocks).toBe(4); // three leaves and the root
  });

  it('directories as `ipfs add -r` (Kubo t0040 planets and moons)', async () => {
    const file = (path: string, body: string): DirectoryEntryInput => ({
      kind: 'file',
      path,
      content: () => chunked(text(body)),
    });
    const planets = await importDirectoryEntries(
      [file('mars.txt', 'Hello Mars!\n'), file('venus.txt', 'Hello Venus!\n')],
      countingStore() as never,
    );
    expect(planets.cid.toString()).toBe('QmWSgS32xQEcXMeqd3YPJLrNBLSdsfYCep2U7CFkyrjXwY');
    expect(planets.bytes).toBe(25);
    const moons = await importDirectoryEntries(
      [
        file('jupiter/europa.txt', 'Hello Europa!\n'),
        file('saturn/titan.txt', 'Hello Titan!\n'),
        file('mercury.txt', 'hey you are no moon!\n'),
      ],
      countingStore() as never,
    );
    expect(moons.cid.toString()).toBe('QmbGoaQZm8kjYfCiN1aBsgwhqfUBGDYTrDb91Mz7Dvq81B');
  });

  it('an empty folder inside a directory is the empty UnixFS directory (Kubo test-lib-hashes.sh)', async () => {
    const store = countingStore();
    const withEmpty = await importDirectoryEntries([{ kind: 'directory', path: 'empty' }], store as never);
    expect(store.keys.has('QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn')).toBe(true);
    expect(store.keys.has(withEmpty.cid.toString())).toBe(true);
    expect(withEmpty.bytes).toBe(0);
  });
});
