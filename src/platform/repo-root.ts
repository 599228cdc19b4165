import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

function isChaingateRoot(directory: string): boolean {
  const manifest = join(directory, 'package.json');
  if (!existsSync(manifest)) return false;
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'chaingate';
  } catch {
    return false;
  }
}

/**
 * The repository root, found by walking up from this file, so it is right whether the code runs from
 * `src/` (tsx, vitest) or from the compiled `dist/src/`. Non-TypeScript assets (SQL migrations,
 * contract artifacts) are read from there.
 */
export function repoRoot(): string {
  if (cached) return cached;
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!isChaingateRoot(directory)) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`chaingate repository root not found above ${import.meta.url}`);
    directory = parent;
  }
  cached = directory;
  return directory;
}
