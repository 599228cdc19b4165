import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { rpcCall as rpc } from '../../../test/support/anvil.ts';
import { processAlive } from '../child-processes.ts';
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

describe('anvil devnet: an anvil that dies on its own', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const funded = '0x00000000000000000000000000000000000f00d5';

  /** Waits until the devnet's RPC answers again, and answers the block number it is at. */
  async function answersAgain(rpcUrl: string): Promise<bigint> {
    for (let waited = 0; waited < 30_000; waited += 100) {
      try {
        return BigInt((await rpc(rpcUrl, 'eth_blockNumber')) as string);
      } catch {
        await sleep(100);
      }
    }
    throw new Error('the devnet did not answer again within 30 s');
  }

  /** Pids of live anvil processes started for this state dir. */
  function anvilsOf(stateDir: string): number[] {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
          return command.includes('anvil') && command.includes(stateDir);
        } catch {
          return false;
        }
      })
      .map(Number);
  }

  it('is started again on the same port from the last saved state', { timeout: 60_000 }, async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'chaingate-devnet-'));
    dirs.push(stateDir);
    const lines: string[] = [];
    const devnet = await startAnvilDevnet({ stateDir, port: 0, onLog: (line) => lines.push(line) });
    try {
      await rpc(devnet.rpcUrl, 'anvil_setBalance', [funded, '0x1234']);
      await rpc(devnet.rpcUrl, 'anvil_mine', ['0x5']);
      await devnet.snapshots?.dumpNow();
      // Made after the last save: the restarted chain forgets it.
      await rpc(devnet.rpcUrl, 'anvil_mine', ['0x3']);
      const first = devnet.pid;
      process.kill(first, 'SIGKILL');

      expect(await answersAgain(devnet.rpcUrl)).toBe(5n);
      // It answers a moment before the start is through and the devnet knows its new process.
      while (devnet.pid === first) await sleep(20);
      expect(processAlive(devnet.pid)).toBe(true);
      expect(await rpc(devnet.rpcUrl, 'eth_getBalance', [funded, 'latest'])).toBe('0x1234');
      expect(JSON.parse(readFileSync(join(stateDir, 'anvil.pid'), 'utf8'))).toEqual({
        pid: devnet.pid,
        port: devnet.port,
      });
      expect(lines.join('\n')).toMatch(/anvil \(port \d+\) exited on its own \(SIGKILL\); starting it again/);

      // And again: every death is followed by a start (the second waits a second: they come quickly).
      process.kill(devnet.pid, 'SIGKILL');
      expect(await answersAgain(devnet.rpcUrl)).toBe(5n);
    } finally {
      await devnet.stop();
    }
    expect(anvilsOf(stateDir)).toEqual([]);
    expect(existsSync(join(stateDir, 'anvil.pid'))).toBe(false);
  });

  it('is not started again once stopped, even when it died just before', { timeout: 60_000 }, async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'chaingate-devnet-'));
    dirs.push(stateDir);
    const devnet = await startAnvilDevnet({ stateDir, port: 0 });
    process.kill(devnet.pid, 'SIGKILL');
    // The exit reaches the devnet while it stops: whatever start it began ends stopped too.
    await sleep(50);
    await devnet.stop();
    await sleep(1_500);
    expect(anvilsOf(stateDir)).toEqual([]);
  });
});
