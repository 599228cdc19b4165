import { readdirSync, readFileSync } from 'node:fs';

/** Direct children of a process, from /proc (empty once it is gone). */
export function childPids(pid: number): number[] {
  const pids: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (children) pids.push(...children.split(/\s+/).map(Number));
    }
  } catch {
    // gone or unreadable: no children to report
  }
  return pids;
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every process below `pid`, children first. */
export function descendants(pid: number): number[] {
  const all: number[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    for (const child of childPids(stack.pop() as number)) {
      all.push(child);
      stack.push(child);
    }
  }
  return all;
}

/** The PostgreSQL processes a server started (its embedded store). */
export function storePids(serverPid: number): number[] {
  return descendants(serverPid).filter((pid) => commandLine(pid).includes('postgres'));
}
