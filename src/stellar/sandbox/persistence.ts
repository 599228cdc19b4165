import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClosedLedger } from './ledger-header.ts';
import type { NodeSnapshot } from './sandbox-node.ts';

/** The whole state: accounts, contracts, storage, history. Rewritten when a close changed the state. */
const FILE = 'soroban-sandbox.json';
/**
 * The ledgers closed empty since that snapshot, one JSON line each. An idle network closes one a second,
 * and rewriting the whole snapshot for each (about 1 KB a ledger of history, 2,000 ledgers kept) wrote
 * 2.2 MB a second to disk forever once the history was full; appending costs ~1 KB.
 */
const JOURNAL = 'soroban-ledgers.jsonl';

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
  snap.ledgers.push(...(await journaledLedgers(dataDir, snap.ledgers.at(-1)?.sequence ?? 0)));
  return snap;
}

/**
 * The journal's ledgers that continue the snapshot, in order. Lines the snapshot already holds (a crash
 * between a snapshot and the journal's removal) are skipped; a torn last line (a crash mid-append) ends
 * the journal.
 */
async function journaledLedgers(dataDir: string, lastSequence: number): Promise<ClosedLedger[]> {
  let text: string;
  try {
    text = await readFile(join(dataDir, JOURNAL), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const ledgers: ClosedLedger[] = [];
  let next = lastSequence + 1;
  for (const line of text.split('\n')) {
    let ledger: ClosedLedger;
    try {
      ledger = JSON.parse(line) as ClosedLedger;
    } catch {
      break;
    }
    if (ledger.sequence < next) continue;
    if (ledger.sequence > next) break;
    ledgers.push(ledger);
    next++;
  }
  return ledgers;
}

/**
 * Write-then-rename so a crash mid-write never leaves a torn snapshot behind; the journal goes after
 * it, since the snapshot now holds its ledgers.
 */
export async function saveSnapshot(dataDir: string, snap: NodeSnapshot): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(snap), { mode: 0o600 });
  await rename(tmp, path);
  await rm(join(dataDir, JOURNAL), { force: true });
}

/** Records a ledger closed without changing the state; only valid after a `saveSnapshot`. */
export async function appendLedger(dataDir: string, ledger: ClosedLedger): Promise<void> {
  await appendFile(join(dataDir, JOURNAL), `${JSON.stringify(ledger)}\n`, { mode: 0o600 });
}
