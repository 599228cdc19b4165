import { CliError } from './admin-client.ts';

/** `chaingate soroban-sandbox`: wired once the sandbox lands (src/stellar/sandbox). */
export async function runSorobanSandboxCommand(_options: {
  port: string | undefined;
  host: string | undefined;
  dataDir: string | undefined;
}): Promise<undefined> {
  throw new CliError('soroban-sandbox is not available yet');
}
