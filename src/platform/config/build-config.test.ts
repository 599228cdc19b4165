import { describe, expect, it } from 'vitest';
import { parseBuildConfig } from './build-config.ts';

const MIB = 1024 * 1024;

describe('parseBuildConfig', () => {
  it("defaults to Debian's toolchain and the documented limits", () => {
    expect(parseBuildConfig({}, {})).toEqual({
      cargo: '/usr/bin/cargo',
      rustc: '/usr/bin/rustc',
      bubblewrap: '/usr/bin/bwrap',
      timeoutSeconds: 300,
      memoryBytes: 2048 * MIB,
      diskBytes: 1024 * MIB,
      maxUploadBytes: 16 * MIB,
      worker: true,
    });
  });

  it('reads the config file, and the environment over it', () => {
    const file = { stellar: { build: { cargo: '/opt/rust/bin/cargo', timeoutSeconds: 60, memoryMb: 512 } } };
    expect(parseBuildConfig({}, file)).toMatchObject({
      cargo: '/opt/rust/bin/cargo',
      timeoutSeconds: 60,
      memoryBytes: 512 * MIB,
    });
    expect(
      parseBuildConfig(
        {
          CHAINGATE_CARGO: '/usr/local/bin/cargo',
          CHAINGATE_BUILD_TIMEOUT_SECONDS: '2.5',
          CHAINGATE_BUILD_WORKER: '0',
        },
        file,
      ),
    ).toMatchObject({ cargo: '/usr/local/bin/cargo', timeoutSeconds: 2.5, worker: false });
  });

  it.each([
    [{ CHAINGATE_CARGO: 'cargo' }, 'CHAINGATE_CARGO must be an absolute path'],
    [{ CHAINGATE_BUILD_TIMEOUT_SECONDS: '0' }, 'CHAINGATE_BUILD_TIMEOUT_SECONDS must be a positive number'],
    [{ CHAINGATE_BUILD_MEMORY_MB: '10' }, 'CHAINGATE_BUILD_MEMORY_MB must be a whole number of at least 64'],
    [{ CHAINGATE_BUILD_MAX_UPLOAD_BYTES: '1.5' }, 'CHAINGATE_BUILD_MAX_UPLOAD_BYTES must be a whole number'],
  ])('refuses %j', (env, message) => {
    expect(() => parseBuildConfig(env, {})).toThrow(message);
  });
});
