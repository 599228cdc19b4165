import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from '../../src/platform/repo-root.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(entry) && !entry.endsWith('.test.ts') ? [path] : [];
  });
}

it('documents every environment variable the code reads in the README configuration table, and no other', () => {
  const root = repoRoot();
  const read = new Set<string>();
  for (const file of [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'bin'))]) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\benv\.([A-Z][A-Z0-9_]+)|\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g)) {
      read.add((match[1] ?? match[2]) as string);
    }
  }
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('## Configuration'),
    readme.indexOf('\n## ', readme.indexOf('## Configuration') + 5),
  );
  const documented = new Set<string>();
  for (const line of section.split('\n').filter((l) => l.startsWith('| `'))) {
    const firstCell = line.split('|')[1] ?? '';
    for (const match of firstCell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) documented.add(match[1] as string);
  }
  expect(read.size).toBeGreaterThan(10);
  expect([...read].filter((name) => !documented.has(name)).sort()).toEqual([]);
  expect([...documented].filter((name) => !read.has(name)).sort()).toEqual([]);
});
