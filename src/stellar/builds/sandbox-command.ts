import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SorobanBuildConfig } from '../../platform/config/build-config.ts';
import type { ProjectContract } from './builds.repository.ts';

/** The unprivileged user a build runs as, inside the sandbox and (when chaingate is root) outside. */
export const SANDBOX_USER = { uid: 65534, gid: 65534 };

export const SETPRIV = '/usr/bin/setpriv';

/**
 * CPU seconds each process of a build may use: a little over the wall-clock limit, so that a
 * single-threaded endless loop meets the clearer wall-clock limit first.
 */
export const cpuSeconds = (settings: SorobanBuildConfig): number => Math.ceil(settings.timeoutSeconds) + 5;

const MOUNT_POINT = { project: '/project', build: '/build' };

/**
 * What runs inside: copy the read-only project into the build's own tmpfs, `cargo build` the contract
 * packages offline, then write each wasm to fd 3 (`<library> <bytes>\n` and the bytes). Cargo and the
 * build scripts run with fd 3 closed, so only this script writes results there.
 */
const BUILD_SCRIPT = `set -u
cargo=$1; shift
mkdir -p /build/home /build/tmp /build/project || exit 90
cp -R /project/. /build/project/ || exit 90
cd /build/project || exit 90
packages=""
for contract in "$@"; do packages="$packages -p \${contract%%:*}"; done
"$cargo" build --release --offline --target wasm32-unknown-unknown $packages 3>&- 2>&1
status=$?
[ "$status" -eq 0 ] || exit "$status"
for contract in "$@"; do
  wasm="/build/target/wasm32-unknown-unknown/release/\${contract#*:}.wasm"
  if [ -f "$wasm" ]; then
    printf '%s %s\\n' "\${contract#*:}" "$(wc -c < "$wasm")" >&3 && cat "$wasm" >&3 || exit 91
  fi
done
`;

/** Top-level system folders: on merged-/usr systems they are links into /usr, elsewhere folders. */
function systemFolders(): string[] {
  const args: string[] = [];
  for (const path of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    if (!existsSync(path)) continue;
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else if (stat.isDirectory()) args.push('--ro-bind', path, path);
  }
  // `cc` (the linker of build scripts) is a Debian alternative: /usr/bin/cc -> /etc/alternatives/cc.
  if (existsSync('/etc/alternatives')) args.push('--ro-bind', '/etc/alternatives', '/etc/alternatives');
  return args;
}

/** A toolchain installed outside /usr (e.g. /opt/rust/bin/cargo) is mounted whole, read-only. */
function toolchainFolders(settings: SorobanBuildConfig): string[] {
  const roots = new Set<string>();
  for (const binary of [settings.cargo, settings.rustc]) {
    const real = existsSync(binary) ? realpathSync(binary) : binary;
    if (!real.startsWith('/usr/')) roots.add(dirname(dirname(real)));
  }
  return [...roots].flatMap((root) => ['--ro-bind', root, root]);
}

export type SandboxCommand = { command: string; args: string[] };

/**
 * The command that builds a project: bubblewrap with every namespace unshared (no network: only a
 * loopback of its own; its own PIDs, IPC, hostname), /usr and the toolchain read-only, the project
 * read-only, one size-bounded tmpfs as the only writable place, the root remounted read-only, a fresh
 * /proc and a minimal /dev, an empty environment; then prlimit's per-process limits (address space, CPU
 * seconds, file size, processes, no core dumps) under `nice`. When chaingate runs as root, setpriv
 * first drops to an unprivileged user with no capabilities, so nothing in the sandbox is root anywhere.
 */
export function sandboxCommand(
  settings: SorobanBuildConfig,
  parameters: { projectDir: string; contracts: ProjectContract[]; asRoot: boolean },
): SandboxCommand {
  const bubblewrap = [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--uid',
    String(SANDBOX_USER.uid),
    '--gid',
    String(SANDBOX_USER.gid),
    '--ro-bind',
    '/usr',
    '/usr',
    ...systemFolders(),
    ...toolchainFolders(settings),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(settings.diskBytes),
    '--tmpfs',
    MOUNT_POINT.build,
    '--ro-bind',
    parameters.projectDir,
    MOUNT_POINT.project,
    '--symlink',
    '/build/tmp',
    '/tmp',
    '--remount-ro',
    '/',
    '--chdir',
    MOUNT_POINT.build,
    '--clearenv',
    '--setenv',
    'PATH',
    `${dirname(settings.rustc)}:/usr/bin:/bin`,
    '--setenv',
    'HOME',
    '/build/home',
    '--setenv',
    'CARGO_HOME',
    '/build/home/.cargo',
    '--setenv',
    'CARGO_TARGET_DIR',
    '/build/target',
    '--setenv',
    'CARGO_NET_OFFLINE',
    'true',
    '--setenv',
    'CARGO_TERM_COLOR',
    'never',
    '--setenv',
    'TMPDIR',
    '/build/tmp',
    '--setenv',
    'RUSTC',
    settings.rustc,
    '--',
    '/usr/bin/nice',
    '-n',
    '10',
    '/usr/bin/prlimit',
    `--as=${settings.memoryBytes}`,
    `--cpu=${cpuSeconds(settings)}`,
    `--fsize=${settings.diskBytes}`,
    '--nproc=512',
    '--nofile=1024',
    '--core=0',
    '--',
    '/bin/sh',
    '-c',
    BUILD_SCRIPT,
    'sh',
    settings.cargo,
    ...parameters.contracts.map((contract) => `${contract.name}:${contract.library}`),
  ];
  if (!parameters.asRoot) return { command: settings.bubblewrap, args: bubblewrap };
  return {
    command: SETPRIV,
    args: [
      `--reuid=${SANDBOX_USER.uid}`,
      `--regid=${SANDBOX_USER.gid}`,
      '--clear-groups',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--',
      settings.bubblewrap,
      ...bubblewrap,
    ],
  };
}
