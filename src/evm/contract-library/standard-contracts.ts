import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Abi, Hex } from 'viem';
import { repoRoot } from '../../platform/repo-root.ts';
import { type ContractArtifact, libraryContracts } from './contract-artifact.ts';

export interface StandardContract {
  specName: string;
  description: string;
  abi: Abi;
  bytecode: Hex;
}

/** Reads the committed artifacts in `contracts/artifacts/`, in library order. */
export function loadStandardContracts(): StandardContract[] {
  const artifactsDir = join(repoRoot(), 'contracts', 'artifacts');
  return libraryContracts.map(({ specName, description }) => {
    const file = join(artifactsDir, `${specName}.json`);
    const artifact = JSON.parse(readFileSync(file, 'utf8')) as ContractArtifact;
    if (
      artifact.specName !== specName ||
      !artifact.bytecode?.startsWith('0x') ||
      !Array.isArray(artifact.abi)
    ) {
      throw new Error(`malformed contract artifact ${file}; run npm run contracts:build`);
    }
    return { specName, description, abi: artifact.abi, bytecode: artifact.bytecode };
  });
}
