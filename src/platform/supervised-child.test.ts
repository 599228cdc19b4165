import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, expect, it } from 'vitest';
import { processAlive } from './child-processes.ts';
import { superviseChild } from './supervised-child.ts';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started) child.kill('SIGKILL');
  started.length = 0;
});

/** A child that lives until killed. */
async function sleeper(): Promise<ChildProcess> {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  started.push(child);
  await once(child, 'spawn');
  return child;
}

/** Resolves once `read()` is true (polls every 20 ms). */
async function until(read: () => boolean): Promise<void> {
  while (!read()) await new Promise((resolve) => setTimeout(resolve, 20));
}

it('starts a child again when it exits on its own, trying again when a start fails', async () => {
  const lines: string[] = [];
  let starts = 0;
  const first = await sleeper();
  const supervised = superviseChild(first, {
    name: 'the sleeper',
    start: async () => {
      starts++;
      if (starts === 1) throw new Error('port in use');
      return sleeper();
    },
    log: (line) => lines.push(line),
  });
  first.kill('SIGKILL');
  await until(() => supervised.child !== first);
  expect(starts).toBe(2);
  expect(processAlive(supervised.child.pid as number)).toBe(true);
  expect(lines).toEqual([
    'the sleeper exited on its own (SIGKILL); starting it again',
    'the sleeper did not start again: port in use',
    `the sleeper started again (pid ${supervised.child.pid})`,
  ]);
  await supervised.stopRestarts();
});

it('starts nothing once told to stop, and waits for a start under way', async () => {
  const first = await sleeper();
  let finishStart: (child: ChildProcess) => void = () => {};
  const supervised = superviseChild(first, {
    name: 'the sleeper',
    start: () => new Promise<ChildProcess>((resolve) => (finishStart = resolve)),
    log: () => {},
  });
  first.kill('SIGKILL');
  await once(first, 'exit');
  // A start is under way: stopping waits for it, and the child it brings is the one to stop.
  let stoppedRestarts = false;
  const stopping = supervised.stopRestarts().then(() => {
    stoppedRestarts = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(stoppedRestarts).toBe(false);
  const second = await sleeper();
  finishStart(second);
  await stopping;
  expect(supervised.child).toBe(second);

  // Its exit now starts nothing.
  second.kill('SIGKILL');
  await once(second, 'exit');
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(supervised.child).toBe(second);
});
