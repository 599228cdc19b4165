import { describe, expect, it } from 'vitest';
import { parseBuildConfig } from '../../platform/config/build-config.ts';
import { failureReason } from './build-failure.ts';
import { sandboxCommand } from './sandbox-command.ts';

const settings = parseBuildConfig({}, {});
const contracts = [{ name: 'hello-world', library: 'hello_world' }];

describe('sandboxCommand', () => {
  it('drops to an unprivileged user with no capabilities before bubblewrap when chaingate is root', () => {
    const { command, args } = sandboxCommand(settings, { projectDir: '/tmp/p', contracts, asRoot: true });
    expect(command).toBe('/usr/bin/setpriv');
    expect(args.slice(0, 7)).toEqual([
      '--reuid=65534',
      '--regid=65534',
      '--clear-groups',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--',
      '/usr/bin/bwrap',
    ]);
  });

  it('unshares every namespace, mounts the project read-only and bounds the build', () => {
    const { command, args } = sandboxCommand(settings, { projectDir: '/tmp/p', contracts, asRoot: false });
    expect(command).toBe('/usr/bin/bwrap');
    const line = args.join(' ');
    expect(line).toContain('--unshare-all --die-with-parent --new-session --uid 65534 --gid 65534');
    expect(line).toContain('--ro-bind /tmp/p /project');
    expect(line).toContain(`--size ${1024 * 1024 * 1024} --tmpfs /build`);
    expect(line).toContain('--remount-ro / --chdir /build --clearenv');
    expect(line).toContain(`--as=${2048 * 1024 * 1024} --cpu=305`);
    expect(args.slice(-2)).toEqual(['/usr/bin/cargo', 'hello-world:hello_world']);
    expect(args).not.toContain('--share-net');
  });

  it('mounts a toolchain installed outside /usr', () => {
    const { args } = sandboxCommand(
      { ...settings, cargo: '/opt/rust/bin/cargo', rustc: '/opt/rust/bin/rustc' },
      { projectDir: '/tmp/p', contracts, asRoot: false },
    );
    expect(args.join(' ')).toContain('--ro-bind /opt/rust /opt/rust');
  });
});

describe('failureReason', () => {
  const failed = { kind: 'failed', exitCode: 101, signal: null } as const;
  it.each([
    ['error: no matching package named `soroban-sdk` found', 'dependencies cannot be fetched'],
    [
      'memory allocation of 1073741824 bytes failed',
      'ran out of memory: each of its processes may use 2048 MiB',
    ],
    ['(signal: 24, SIGXCPU: CPU time limit exceeded)', 'ran out of CPU time'],
    ['No space left on device (os error 28)', 'ran out of disk space'],
    ["error[E0463]: can't find crate for `std`", 'wasm32-unknown-unknown standard library'],
    ['error[E0308]: mismatched types', 'compilation failed (cargo ended with status 101): see the log'],
  ])('reads %s', (log, reason) => {
    expect(failureReason(failed, log, settings)).toContain(reason);
  });

  it('says when the wall-clock limit stopped the build', () => {
    expect(failureReason({ kind: 'timed-out' }, '', settings)).toBe(
      'the build ran out of time: it was stopped after 300 seconds (CHAINGATE_BUILD_TIMEOUT_SECONDS)',
    );
  });
});
