import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../src/platform/repo-root.ts';
import { type ServerProcess, spawnServerProcess } from '../test/support/server-process.ts';
import type { Cleanup } from './cleanup.ts';

/**
 * Compiles `src` as `npm run build` does, but into `bench/.tmp/` (git-ignored, removed afterwards) so
 * the shared `dist/` is left alone. It has to sit inside the repository: the compiled code finds its
 * assets (migrations, contract artifacts) and node_modules by walking up from itself.
 */
export async function buildServer(cleanup: Cleanup): Promise<string> {
  const parent = join(repoRoot(), 'bench', '.tmp');
  mkdirSync(parent, { recursive: true });
  const outDir = mkdtempSync(join(parent, 'build-'));
  cleanup.add('compiled server', () => {
    rmSync(outDir, { recursive: true, force: true });
    // The parent goes too unless another bench run is using it right now.
    if (readdirSync(parent).length === 0) rmdirSync(parent);
  });
  const tsc = join(repoRoot(), 'node_modules', '.bin', 'tsc');
  const output = await new Promise<{ code: number | null; text: string }>((resolve, reject) => {
    const child = spawn(tsc, ['-p', 'tsconfig.build.json', '--outDir', outDir], { cwd: repoRoot() });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, text }));
  });
  // Type errors still emit JavaScript; they are shown, not fatal, since the tree is shared and in flux.
  if (output.code !== 0) process.stderr.write(`bench: tsc reported (code ${output.code}):\n${output.text}\n`);
  return join(outDir, 'src', 'main.js');
}

/**
 * The node flags of `npm start` (`node <flags> dist/src/main.js` in package.json), so the bench runs the
 * server exactly as a user does, V8 heap settings included.
 */
export function startScriptNodeFlags(): string[] {
  const manifest = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = manifest.scripts.start.split(/\s+/);
  if (words[0] !== 'node') throw new Error(`npm start does not run node: ${manifest.scripts.start}`);
  return words.slice(1).filter((word) => word.startsWith('--'));
}

/** Runs the compiled entry point as `npm start` does (same node flags), same env defaults as the tests. */
export function spawnCompiledServer(entry: string, env: Record<string, string>): ServerProcess {
  // BENCH_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the server during a run.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  return spawnServerProcess([...startScriptNodeFlags(), ...nodeArgs, entry], env);
}
