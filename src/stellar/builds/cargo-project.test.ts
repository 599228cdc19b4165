import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectContracts } from './cargo-project.ts';
import type { ProjectTree } from './project-archive.ts';

/** Writes the files into a fresh folder and answers it with its tree, as `unpackProject` would. */
function project(files: Record<string, string>): { root: string; tree: ProjectTree } {
  const root = mkdtempSync(join(tmpdir(), 'cg-cargo-'));
  const tree: ProjectTree = { files: new Set(), directories: new Set() };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    tree.files.add(path);
    const parts = path.split('/');
    for (let depth = 1; depth < parts.length; depth++) tree.directories.add(parts.slice(0, depth).join('/'));
  }
  return { root, tree };
}

const contract = (name: string, extra = '') =>
  `[package]\nname = "${name}"\nversion = "0.1.0"\n\n[lib]\ncrate-type = ["cdylib", "rlib"]\n${extra}`;
const library = (name: string) => `[package]\nname = "${name}"\nversion = "0.1.0"\n`;

async function detect(files: Record<string, string>) {
  const { root, tree } = project(files);
  return detectContracts(root, tree);
}

describe('detectContracts', () => {
  it('finds a single-package contract and the wasm name cargo gives it', async () => {
    expect(await detect({ 'Cargo.toml': contract('hello-world') })).toEqual([
      { name: 'hello-world', library: 'hello_world' },
    ]);
  });

  it('expands workspace member globs, honours exclude, and skips members that build no cdylib', async () => {
    const contracts = await detect({
      'Cargo.toml': '[workspace]\nmembers = ["contracts/*", "tools/**"]\nexclude = ["contracts/old"]\n',
      'contracts/token/Cargo.toml': contract('token'),
      'contracts/vault/Cargo.toml': contract('vault', '\n[dependencies]\n'),
      'contracts/old/Cargo.toml': contract('old'),
      'contracts/notes/README.md': 'not a crate',
      'tools/nested/deep/Cargo.toml': contract('deep', 'name = "deep_lib"\n'),
      'tools/cli/Cargo.toml': library('cli'),
    });
    expect(contracts).toEqual([
      { name: 'token', library: 'token' },
      { name: 'vault', library: 'vault' },
      { name: 'deep', library: 'deep_lib' },
    ]);
  });

  it('counts a root package beside its workspace members', async () => {
    const contracts = await detect({
      'Cargo.toml': `${contract('root')}\n[workspace]\nmembers = ["member"]\n`,
      'member/Cargo.toml': contract('member'),
    });
    expect(contracts.map((found) => found.name)).toEqual(['root', 'member']);
  });

  it.each([
    [
      'a zip of the folder rather than its contents',
      { 'project/Cargo.toml': contract('a'), '__MACOSX/project/._Cargo.toml': '' },
      'the zip holds the folder project rather than its contents',
    ],
    ['no Cargo.toml at all', { 'src/lib.rs': '' }, 'no Cargo.toml at the root'],
    ['a manifest that is not TOML', { 'Cargo.toml': 'package]' }, 'Cargo.toml is not valid TOML (line 1)'],
    ['no contract', { 'Cargo.toml': library('a') }, 'no contract in the project'],
    ['an empty manifest', { 'Cargo.toml': '' }, 'neither a [package] nor [workspace] members'],
    [
      'a member outside the project',
      { 'Cargo.toml': '[workspace]\nmembers = ["../elsewhere"]\n' },
      'is outside the project',
    ],
    ['members that are not strings', { 'Cargo.toml': '[workspace]\nmembers = [1]\n' }, 'list of strings'],
    ['a package name with a slash', { 'Cargo.toml': contract('a/b') }, 'package.name must be a crate name'],
    [
      'two packages with one name',
      {
        'Cargo.toml': '[workspace]\nmembers = ["a", "b"]\n',
        'a/Cargo.toml': contract('x'),
        'b/Cargo.toml': contract('x'),
      },
      'two packages are named x',
    ],
  ])('refuses %s', async (_, files, message) => {
    await expect(detect(files)).rejects.toMatchObject({
      code: 'CG_ERR_STELLAR_NOT_A_CARGO_PROJECT',
      message: expect.stringContaining(message),
    });
  });
});
