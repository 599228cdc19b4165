import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Tightens what is too open: directories to 0700, files to 0600 (never loosens). */
function tighten(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    if ((stat.mode & 0o077) !== 0) chmodSync(path, stat.mode & 0o700);
    for (const entry of readdirSync(path)) tighten(join(path, entry));
  } else if ((stat.mode & 0o077) !== 0) chmodSync(path, stat.mode & 0o600);
}

/**
 * Makes the data dir readable by this user only, whatever the umask: everything under it is a secret
 * or the state (keys, the store, chain state, uploads). The process umask becomes 077, so what the
 * store, the devnet and the service write from now on is born private; what older versions left is
 * tightened once at start.
 */
export function secureDataDir(dataDir: string): void {
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  tighten(dataDir);
}
