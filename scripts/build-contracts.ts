import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileContractLibrary } from '../src/evm/contract-library/compile-contracts.ts';
import { serializeArtifact } from '../src/evm/contract-library/contract-artifact.ts';
import { repoRoot } from '../src/platform/repo-root.ts';

const artifactsDir = join(repoRoot(), 'contracts', 'artifacts');

const artifacts = await compileContractLibrary({ onWarning: (message) => console.warn(message) });
mkdirSync(artifactsDir, { recursive: true });
for (const artifact of Object.values(artifacts)) {
  const file = join(artifactsDir, `${artifact.specName}.json`);
  writeFileSync(file, serializeArtifact(artifact));
  console.log(`wrote ${file} (${(artifact.bytecode.length - 2) / 2} bytes of bytecode)`);
}
