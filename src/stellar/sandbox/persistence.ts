import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NodeSnapshot } from './sandbox-node.ts';

const FILE = 'soroban-sandbox.json';

/** Thrown when a data dir holds a snapshot we cannot use (other network, unknown format). */
export class SnapshotError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'SnapshotError';
  }
}

export async function loadSnapshot(dataDir: string, passphrase: string): Promise<NodeSnapshot | undefined> {
  const path = join(dataDir, FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const snap = JSON.parse(text) as NodeSnapshot;
  if (snap.version !== 1)
    throw new SnapshotError(path, `unsupported snapshot version ${String(snap.version)}`);
  if (snap.passphrase !== passphrase)
    throw new SnapshotError(path, `snapshot is for network '${snap.passphrase}'`);
  return snap;
}

/** Write-then-rename so a crash mid-write never leaves a torn snapshot behind. */
export async function saveSnapshot(dataDir: string, snap: NodeSnapshot): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(snap));
  await rename(tmp, path);
}
