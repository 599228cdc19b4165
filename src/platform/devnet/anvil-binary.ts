import { accessSync, chmodSync, constants, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export class DevnetError extends Error {
  override name = 'DevnetError';
}

/**
 * The anvil binary shipped by `@foundry-rs/anvil-linux-amd64`. npm may skip the package's install
 * scripts, leaving the binary without its executable bit, so it is set here when missing.
 */
export function locateAnvilBinary(override?: string): string {
  let path = override;
  if (!path) {
    try {
      const manifest = createRequire(import.meta.url).resolve('@foundry-rs/anvil-linux-amd64/package.json');
      path = join(dirname(manifest), 'bin', 'anvil');
    } catch {
      throw new DevnetError(
        'anvil binary not found: install the @foundry-rs/anvil-linux-amd64 package (npm install)',
      );
    }
  }
  if (!existsSync(path) || !statSync(path).isFile())
    throw new DevnetError(`anvil binary not found at ${path}`);
  try {
    accessSync(path, constants.X_OK);
  } catch {
    try {
      chmodSync(path, 0o755);
    } catch (cause) {
      throw new DevnetError(
        `anvil binary at ${path} is not executable and chmod failed: ${(cause as Error).message}`,
      );
    }
  }
  return path;
}
