import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { ChaingateError, quote } from '../../platform/errors/chaingate-error.ts';
import type { ProjectContract } from './builds.repository.ts';
import type { ProjectTree } from './project-archive.ts';

const MAX_MANIFEST_BYTES = 256 * 1024;
const PACKAGE_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** Folders archivers add beside the contents (macOS Finder), ignored when telling folder from contents. */
const ARCHIVER_FOLDERS = new Set(['__MACOSX']);

function notAProject(message: string): ChaingateError {
  return new ChaingateError('CG_ERR_STELLAR_NOT_A_CARGO_PROJECT', `file: ${message}`);
}

type Manifest = Record<string, unknown>;

async function readManifest(root: string, path: string): Promise<Manifest> {
  const file = join(root, path);
  if ((await stat(file)).size > MAX_MANIFEST_BYTES)
    throw notAProject(`${path} is larger than ${MAX_MANIFEST_BYTES} bytes`);
  try {
    return parseToml(await readFile(file, 'utf8')) as Manifest;
  } catch (cause) {
    const line = (cause as { line?: number }).line;
    throw notAProject(`${path} is not valid TOML${line ? ` (line ${line})` : ''}`);
  }
}

const table = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

function stringList(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    throw notAProject(`${where} must be a list of strings`);
  return value as string[];
}

/** Cargo's member globs (`*`, `?`, `**`) matched against the project's folders, one segment at a time. */
function segmentPattern(segment: string): RegExp {
  const body = segment
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  return new RegExp(`^${body}$`);
}

function matchesGlob(pattern: string[], path: string[]): boolean {
  if (pattern.length === 0) return path.length === 0;
  const [head, ...rest] = pattern as [string, ...string[]];
  if (head === '**')
    return path.some((_, skip) => matchesGlob(rest, path.slice(skip))) || matchesGlob(rest, []);
  if (path.length === 0) return false;
  return segmentPattern(head).test(path[0] as string) && matchesGlob(rest, path.slice(1));
}

function normalise(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
}

function expandMembers(patterns: string[], tree: ProjectTree): string[] {
  const members = new Set<string>();
  for (const raw of patterns) {
    const pattern = normalise(raw);
    if (pattern.split('/').includes('..') || pattern.startsWith('/'))
      throw notAProject(`workspace member ${quote(raw)} is outside the project`);
    if (!/[*?]/.test(pattern)) {
      if (!tree.files.has(`${pattern}/Cargo.toml`))
        throw notAProject(`workspace member ${quote(raw)} has no Cargo.toml in the zip`);
      members.add(pattern);
      continue;
    }
    const parts = pattern.split('/');
    for (const directory of tree.directories) {
      if (matchesGlob(parts, directory.split('/')) && tree.files.has(`${directory}/Cargo.toml`))
        members.add(directory);
    }
  }
  return [...members].sort();
}

/** A package is a contract when it builds a `cdylib` (the .wasm); answers its name and wasm stem. */
function contractOf(manifest: Manifest, path: string): ProjectContract | undefined {
  const pkg = table(manifest.package);
  if (!pkg) return undefined;
  const name = pkg.name;
  if (typeof name !== 'string' || !PACKAGE_NAME.test(name))
    throw notAProject(`${path}: package.name must be a crate name (letters, digits, - and _)`);
  const lib = table(manifest.lib);
  const crateTypes = stringList(lib?.['crate-type'] ?? lib?.crate_type, `${path}: lib.crate-type`);
  if (!crateTypes.includes('cdylib')) return undefined;
  const library = typeof lib?.name === 'string' ? lib.name : name.replace(/-/g, '_');
  if (!/^[A-Za-z0-9_]{1,64}$/.test(library)) throw notAProject(`${path}: lib.name must be a crate name`);
  return { name, library };
}

/**
 * The contracts of an unpacked Cargo project: its root package and its workspace members (globs
 * expanded, `exclude` honoured) that build a `cdylib`. A zip of the project's folder rather than of its
 * contents, a zip without Cargo.toml, a manifest that does not parse or a project without a contract
 * is a 400 that says so.
 */
export async function detectContracts(root: string, tree: ProjectTree): Promise<ProjectContract[]> {
  if (!tree.files.has('Cargo.toml')) {
    const top = new Set([...tree.files, ...tree.directories].map((path) => path.split('/')[0] as string));
    for (const folder of ARCHIVER_FOLDERS) top.delete(folder);
    const [only] = top;
    if (top.size === 1 && only !== undefined && tree.files.has(`${only}/Cargo.toml`)) {
      throw notAProject(
        `the zip holds the folder ${quote(only)} rather than its contents: zip what is inside the project ` +
          'folder, so that Cargo.toml is at the root of the zip',
      );
    }
    throw notAProject('not a Cargo project: there is no Cargo.toml at the root of the zip');
  }
  const rootManifest = await readManifest(root, 'Cargo.toml');
  const workspace = table(rootManifest.workspace);
  const candidates: Array<{ path: string; manifest: Manifest }> = [];
  if (table(rootManifest.package)) candidates.push({ path: 'Cargo.toml', manifest: rootManifest });
  if (workspace) {
    const excluded = new Set(stringList(workspace.exclude, 'workspace.exclude').map(normalise));
    for (const member of expandMembers(stringList(workspace.members, 'workspace.members'), tree)) {
      if (excluded.has(member) || member === '') continue;
      const path = `${member}/Cargo.toml`;
      candidates.push({ path, manifest: await readManifest(root, path) });
    }
  }
  if (candidates.length === 0)
    throw notAProject('Cargo.toml declares neither a [package] nor [workspace] members');
  const contracts: ProjectContract[] = [];
  for (const candidate of candidates) {
    const contract = contractOf(candidate.manifest, candidate.path);
    if (!contract) continue;
    if (contracts.some((other) => other.name === contract.name || other.library === contract.library))
      throw notAProject(`two packages are named ${quote(contract.name)}`);
    contracts.push(contract);
  }
  if (contracts.length === 0) {
    throw notAProject(
      'no contract in the project: no package builds a cdylib (add crate-type = ["cdylib"] under [lib])',
    );
  }
  return contracts;
}
