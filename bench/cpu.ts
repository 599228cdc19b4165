import { readFileSync } from 'node:fs';
import { commandLine, descendants } from './processes.ts';

/** Who used the CPU during a measurement: the bench itself, the server, its anvil, PostgreSQL. */
export type CpuGroup = 'load generator' | 'server' | 'anvil' | 'postgres';
export type CpuUse = Record<CpuGroup, number>;

const groups: CpuGroup[] = ['load generator', 'server', 'anvil', 'postgres'];

/** user + system CPU seconds a process used so far (0 once it is gone). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds so far of every process under this one, grouped: the given server pid is "server",
 * anything named anvil or postgres goes to its group. A PostgreSQL backend that exits during a
 * measurement takes its time with it; the pool keeps its connections, so that is rare.
 */
export function cpuSnapshot(serverPid: number): CpuUse {
  const use: CpuUse = { 'load generator': cpuSeconds(process.pid), server: 0, anvil: 0, postgres: 0 };
  for (const pid of descendants(process.pid)) {
    const command = commandLine(pid);
    if (pid === serverPid) use.server += cpuSeconds(pid);
    else if (command.includes('anvil')) use.anvil += cpuSeconds(pid);
    else if (command.includes('postgres')) use.postgres += cpuSeconds(pid);
  }
  return use;
}

/** Microseconds of CPU per completed request, by group, between two snapshots. */
export function cpuPerRequest(before: CpuUse, after: CpuUse, requests: number): CpuUse {
  const per = {} as CpuUse;
  for (const group of groups)
    per[group] = requests > 0 ? ((after[group] - before[group]) * 1e6) / requests : 0;
  return per;
}

export function totalMicros(use: CpuUse): number {
  return groups.reduce((sum, group) => sum + use[group], 0);
}

/** "load generator 37 · server 84 · anvil 36 · postgres 0 = 157 µs" */
export function formatCpu(use: CpuUse): string {
  const parts = groups
    .filter((group) => use[group] >= 0.5)
    .map((group) => `${group} ${use[group].toFixed(0)}`);
  return `${parts.join(' · ')} = ${totalMicros(use).toFixed(0)} µs`;
}
