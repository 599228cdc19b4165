import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../platform/repo-root.ts';
import { compileContractLibrary } from './compile-contracts.ts';
import { type ContractArtifact, libraryContracts, serializeArtifact } from './contract-artifact.ts';

const artifactsDir = join(repoRoot(), 'contracts', 'artifacts');

describe('compileContractLibrary', () => {
  let fresh: Record<string, ContractArtifact>;

  beforeAll(async () => {
    fresh = await compileContractLibrary();
  });

  it('compiles exactly the library contracts', () => {
    expect(Object.keys(fresh).sort()).toEqual(libraryContracts.map((c) => c.specName).sort());
  });

  it.each(libraryContracts)(
    'reproduces the committed $specName artifact byte for byte',
    ({ specName, contractName }) => {
      const artifact = fresh[specName] as ContractArtifact;
      const committedText = readFileSync(join(artifactsDir, `${specName}.json`), 'utf8');
      const committed = JSON.parse(committedText) as ContractArtifact;
      const hint = `${specName} is stale; run npm run contracts:build`;

      expect(artifact.contractName).toBe(contractName);
      expect(committed.bytecode, hint).toBe(artifact.bytecode);
      expect(committed.abi, hint).toEqual(artifact.abi);
      expect(committedText, hint).toBe(serializeArtifact(artifact));
    },
  );

  it('records the reproducible compiler settings', () => {
    const { compiler } = fresh.ERC20 as ContractArtifact;
    expect(compiler).toMatchObject({ evmVersion: 'cancun', optimizerRuns: 200 });
    expect(compiler.version).toMatch(/^0\.8\.\d+\+commit\./);
  });
});
