import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { SorobanBuildConfig } from '../../platform/config/build-config.ts';
import { SETPRIV } from './sandbox-command.ts';

const run = promisify(execFile);

let ready: string | undefined;

async function executable(path: string, what: string): Promise<string | undefined> {
  try {
    await access(path, constants.X_OK);
    return undefined;
  } catch {
    return `${what} is missing (${path})`;
  }
}

/**
 * Why projects cannot be compiled here, or undefined when they can: bubblewrap, cargo and rustc are
 * present, and rustc has the wasm32-unknown-unknown standard library (the rustup toolchain some
 * machines put first on PATH does not). A working setup is remembered; a broken one is checked again.
 */
export async function toolchainProblem(settings: SorobanBuildConfig): Promise<string | undefined> {
  const key = `${settings.bubblewrap}|${settings.cargo}|${settings.rustc}`;
  if (ready === key) return undefined;
  const missing = [
    await executable(settings.bubblewrap, 'bubblewrap (CHAINGATE_BWRAP)'),
    await executable(settings.cargo, 'cargo (CHAINGATE_CARGO)'),
    await executable(settings.rustc, 'rustc (CHAINGATE_RUSTC)'),
    await executable('/usr/bin/prlimit', 'prlimit (util-linux)'),
    process.getuid?.() === 0 ? await executable(SETPRIV, 'setpriv (util-linux)') : undefined,
  ].filter((problem) => problem !== undefined);
  if (missing.length > 0) return `compilation is unavailable: ${missing.join(', ')}`;
  let sysroot: string;
  try {
    sysroot = (await run(settings.rustc, ['--print', 'sysroot'], { timeout: 10_000, env: {} })).stdout.trim();
  } catch (error) {
    return `compilation is unavailable: ${settings.rustc} --print sysroot failed (${(error as Error).message.slice(0, 200)})`;
  }
  try {
    await access(join(sysroot, 'lib/rustlib/wasm32-unknown-unknown/lib'));
  } catch {
    return `compilation is unavailable: ${settings.rustc} has no wasm32-unknown-unknown standard library (Debian: libstd-rust-dev-wasm32)`;
  }
  // rustc links wasm with rust-lld: beside rustc (Debian: a link to lld-14, from the lld package) or in
  // the sysroot (rustup); a dangling link counts as missing.
  const hosts = await readdir(join(sysroot, 'lib/rustlib')).catch(() => [] as string[]);
  const linkers = [
    join(dirname(settings.rustc), 'rust-lld'),
    ...hosts.map((host) => join(sysroot, 'lib/rustlib', host, 'bin/rust-lld')),
  ];
  const found = await Promise.all(
    linkers.map((path) =>
      access(path, constants.X_OK).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (!found.includes(true))
    return `compilation is unavailable: no wasm linker (rust-lld) for ${settings.rustc} (Debian: the lld package)`;
  ready = key;
  return undefined;
}
