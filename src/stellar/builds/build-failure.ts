import type { SorobanBuildConfig } from '../../platform/config/build-config.ts';
import { cpuSeconds } from './sandbox-command.ts';
import type { SandboxedBuildOutcome } from './sandboxed-build.ts';

const MIB = 1024 * 1024;

/** Log patterns of the usual failures, first match wins; each says what to do about it. */
const KNOWN_FAILURES: Array<{ pattern: RegExp; reason: (settings: SorobanBuildConfig) => string }> = [
  {
    pattern:
      /unable to get packages from source|no matching package named|failed to get `[^`]+` as a dependency|failed to load source for dependency|attempting to make an HTTP request, but --offline was specified|failed to download/i,
    reason: () =>
      'dependencies cannot be fetched: builds run offline, without crates.io; vendor them into the project ' +
      '(cargo vendor, with its source replacement in .cargo/config.toml)',
  },
  {
    pattern: /memory allocation of \d+ bytes failed|out of memory|cannot allocate memory|failed to allocate/i,
    reason: (settings) =>
      `the build ran out of memory: each of its processes may use ${settings.memoryBytes / MIB} MiB ` +
      '(CHAINGATE_BUILD_MEMORY_MB)',
  },
  {
    pattern: /SIGXCPU|CPU time limit exceeded/,
    reason: (settings) =>
      `the build ran out of CPU time: each of its processes may use ${cpuSeconds(settings)} seconds of CPU`,
  },
  {
    pattern: /no space left on device|file too large/i,
    reason: (settings) =>
      `the build ran out of disk space: it has ${settings.diskBytes / MIB} MiB (CHAINGATE_BUILD_DISK_MB)`,
  },
  {
    pattern: /can't find crate for `(core|std)`|target may not be installed/i,
    reason: () =>
      'the toolchain lacks the wasm32-unknown-unknown standard library (Debian: libstd-rust-dev-wasm32), or the project needs std',
  },
];

/** One line saying why a build failed, for its status and the end of its log. */
export function failureReason(
  outcome: Exclude<SandboxedBuildOutcome, { kind: 'built' } | { kind: 'interrupted' }>,
  log: string,
  settings: SorobanBuildConfig,
): string {
  if (outcome.kind === 'timed-out') {
    return `the build ran out of time: it was stopped after ${settings.timeoutSeconds} seconds (CHAINGATE_BUILD_TIMEOUT_SECONDS)`;
  }
  const known = KNOWN_FAILURES.find((failure) => failure.pattern.test(log));
  if (known) return known.reason(settings);
  if (outcome.exitCode === 90) return 'the project could not be copied into the build folder';
  const status =
    outcome.exitCode === null ? `signal ${outcome.signal ?? 'unknown'}` : `status ${outcome.exitCode}`;
  return `compilation failed (cargo ended with ${status}): see the log`;
}
