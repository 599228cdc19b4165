import { isAbsolute } from 'node:path';
import { ConfigError, type ConfigFile } from './config-file.ts';

/** Soroban project compilation (`POST /stellar/v1/contract/upload`): toolchain and sandbox limits. */
export type SorobanBuildConfig = {
  /** Debian's by default: the rustup toolchain some machines put first on PATH lacks the wasm32 target. */
  cargo: string;
  rustc: string;
  bubblewrap: string;
  /** Wall-clock limit of one build; the whole sandbox is killed past it. */
  timeoutSeconds: number;
  /** Address space of each process of the build (RLIMIT_AS). */
  memoryBytes: number;
  /** Size of the build's own tmpfs (the project copy, `target/`, temporary files). */
  diskBytes: number;
  /** Largest accepted zip; its contents may unpack to 4 times as much. */
  maxUploadBytes: number;
  /** False: this process queues uploads but compiles none (another process on the same database does). */
  worker: boolean;
};

type Env = Record<string, string | undefined>;

const MIB = 1024 * 1024;

function absolutePath(value: string, name: string): string {
  if (!isAbsolute(value)) throw new ConfigError(`${name} must be an absolute path, got '${value}'`);
  return value;
}

function wholeNumber(value: string | undefined, name: string, fallback: number, least: number): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < least)
    throw new ConfigError(`${name} must be a whole number of at least ${least}, got '${value}'`);
  return number;
}

export function parseBuildConfig(env: Env, file: ConfigFile): SorobanBuildConfig {
  const entry = file.stellar?.build ?? {};
  const timeout = env.CHAINGATE_BUILD_TIMEOUT_SECONDS;
  const timeoutSeconds =
    timeout === undefined || timeout === '' ? (entry.timeoutSeconds ?? 300) : Number(timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw new ConfigError(`CHAINGATE_BUILD_TIMEOUT_SECONDS must be a positive number, got '${timeout}'`);
  return {
    cargo: absolutePath(env.CHAINGATE_CARGO || entry.cargo || '/usr/bin/cargo', 'CHAINGATE_CARGO'),
    rustc: absolutePath(env.CHAINGATE_RUSTC || entry.rustc || '/usr/bin/rustc', 'CHAINGATE_RUSTC'),
    bubblewrap: absolutePath(env.CHAINGATE_BWRAP || entry.bubblewrap || '/usr/bin/bwrap', 'CHAINGATE_BWRAP'),
    timeoutSeconds,
    memoryBytes:
      wholeNumber(env.CHAINGATE_BUILD_MEMORY_MB, 'CHAINGATE_BUILD_MEMORY_MB', entry.memoryMb ?? 2048, 64) *
      MIB,
    diskBytes:
      wholeNumber(env.CHAINGATE_BUILD_DISK_MB, 'CHAINGATE_BUILD_DISK_MB', entry.diskMb ?? 1024, 16) * MIB,
    maxUploadBytes: wholeNumber(
      env.CHAINGATE_BUILD_MAX_UPLOAD_BYTES,
      'CHAINGATE_BUILD_MAX_UPLOAD_BYTES',
      entry.maxUploadBytes ?? 16 * MIB,
      1,
    ),
    worker: env.CHAINGATE_BUILD_WORKER !== '0',
  };
}
