import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import type { Abi, Hex } from 'viem';
import { repoRoot } from '../../platform/repo-root.ts';
import { type ContractArtifact, libraryContracts } from './contract-artifact.ts';

const EVM_VERSION = 'cancun';
const OPTIMIZER_RUNS = 200;
const OPENZEPPELIN_PREFIX = '@openzeppelin/contracts/';
// Repo-relative unit names keep absolute paths out of the compiler input, so artifacts are reproducible.
const SOURCE_PREFIX = 'contracts/src/';

interface SolcError {
  severity: 'error' | 'warning' | 'info';
  formattedMessage?: string;
  message: string;
}

interface SolcOutput {
  errors?: SolcError[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

export interface CompileOptions {
  /** Receives each compiler warning; warnings never fail the build. */
  onWarning?: (message: string) => void;
}

/** Compiles every `contracts/src/*.sol` and returns the library artifacts keyed by spec name. */
export async function compileContractLibrary(
  options: CompileOptions = {},
): Promise<Record<string, ContractArtifact>> {
  const { default: solc } = await import('solc');
  const root = repoRoot();
  const sources = readLibrarySources(root);
  // Per-file selection so OpenZeppelin's own contracts are not emitted.
  const selection = { '*': ['abi', 'evm.bytecode.object'] };
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: { enabled: true, runs: OPTIMIZER_RUNS },
      metadata: { bytecodeHash: 'none' },
      outputSelection: Object.fromEntries(Object.keys(sources).map((unit) => [unit, selection])),
    },
  };
  const readImport = createImportReader(root);
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: readImport })) as SolcOutput;
  assertNoCompilerErrors(output);
  for (const warning of output.errors ?? []) {
    if (warning.severity === 'warning') options.onWarning?.(warning.formattedMessage ?? warning.message);
  }

  const compiler = {
    version: solc.version() as string,
    evmVersion: EVM_VERSION,
    optimizerRuns: OPTIMIZER_RUNS,
  };
  const artifacts: Record<string, ContractArtifact> = {};
  for (const { specName, sourceFile, contractName } of libraryContracts) {
    const compiled = output.contracts?.[SOURCE_PREFIX + sourceFile]?.[contractName];
    if (!compiled) throw new Error(`solc produced no output for ${contractName} in ${sourceFile}`);
    const object = compiled.evm.bytecode.object;
    if (!/^[0-9a-f]+$/.test(object)) {
      throw new Error(`${contractName} bytecode is empty or needs library linking, which deploys cannot do`);
    }
    artifacts[specName] = {
      specName,
      contractName,
      abi: compiled.abi,
      bytecode: `0x${object}` as Hex,
      compiler,
    };
  }
  return artifacts;
}

function readLibrarySources(root: string): Record<string, { content: string }> {
  const dir = join(root, SOURCE_PREFIX);
  const files = readdirSync(dir)
    .filter((file) => file.endsWith('.sol'))
    .sort();
  if (files.length === 0) throw new Error(`no Solidity sources in ${dir}`);
  return Object.fromEntries(
    files.map((file) => [SOURCE_PREFIX + file, { content: readFileSync(join(dir, file), 'utf8') }]),
  );
}

function createImportReader(root: string): (path: string) => { contents: string } | { error: string } {
  const require = createRequire(join(root, 'package.json'));
  const openZeppelinDir = dirname(require.resolve('@openzeppelin/contracts/package.json'));
  return (path) => {
    const file = resolveImport(root, openZeppelinDir, path);
    if (!file || !existsSync(file)) return { error: `import not found: ${path}` };
    return { contents: readFileSync(file, 'utf8') };
  };
}

// Only the library's own sources and OpenZeppelin are importable; anything else must not leak in.
function resolveImport(root: string, openZeppelinDir: string, path: string): string | undefined {
  const [base, rest] = path.startsWith(OPENZEPPELIN_PREFIX)
    ? [openZeppelinDir, path.slice(OPENZEPPELIN_PREFIX.length)]
    : path.startsWith(SOURCE_PREFIX)
      ? [join(root, SOURCE_PREFIX), path.slice(SOURCE_PREFIX.length)]
      : [undefined, undefined];
  if (base === undefined || rest === undefined) return undefined;
  const file = join(base, rest);
  const inside = relative(base, file);
  return inside.startsWith(`..${sep}`) || inside === '..' ? undefined : file;
}

function assertNoCompilerErrors(output: SolcOutput): void {
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) {
    const details = errors.map((error) => error.formattedMessage ?? error.message).join('\n');
    throw new Error(`Solidity compilation failed:\n${details}`);
  }
}
