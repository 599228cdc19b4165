import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rpcCall as rpc } from '../../../test/support/anvil.ts';
import { startAnvilDevnet } from './anvil-devnet.ts';

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('anvil devnet: the states of past blocks', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps at most 16 on disk, in the state dir, and removes them at start and at stop', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'chaingate-devnet-'));
    dirs.push(stateDir);
    const states = join(stateDir, 'states');
    // Left by an earlier run that did not stop cleanly.
    mkdirSync(states, { recursive: true });
    writeFileSync(join(states, 'left-behind'), 'x');

    const devnet = await startAnvilDevnet({ stateDir, port: 0 });
    try {
      expect(existsSync(join(states, 'left-behind'))).toBe(false);
      // Anvil keeps 500 states in memory when it mines on demand; the rest go to disk.
      await rpc(devnet.rpcUrl, 'anvil_mine', ['0x400']);
      const files = filesUnder(states);
      expect(files.length).toBeGreaterThan(0);
      expect(files.length).toBeLessThanOrEqual(16);
      // A call at a recent block still has its state.
      const head = BigInt((await rpc(devnet.rpcUrl, 'eth_blockNumber')) as string);
      const recent = `0x${(head - 5n).toString(16)}`;
      expect(
        await rpc(devnet.rpcUrl, 'eth_getBalance', ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', recent]),
      ).toMatch(/^0x/);
      // An old block's state is gone: anvil says so.
      await expect(
        rpc(devnet.rpcUrl, 'eth_getBalance', ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '0x10']),
      ).rejects.toThrow(/BlockOutOfRange/);
    } finally {
      await devnet.stop();
    }
    expect(existsSync(states)).toBe(false);
  });
});
