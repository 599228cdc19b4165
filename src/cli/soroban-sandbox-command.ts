import { resolve } from 'node:path';
import { startSorobanSandbox } from '../stellar/sandbox/index.ts';
import { CliError } from './admin-client.ts';

/** `chaingate soroban-sandbox`: a local Soroban network (RPC + friendbot) until Ctrl-C. */
export async function runSorobanSandboxCommand(options: {
  port: string | undefined;
  host: string | undefined;
  dataDir: string | undefined;
}): Promise<undefined> {
  const port = options.port === undefined ? 8000 : Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError('--port must be a port number');
  const sandbox = await startSorobanSandbox({
    port,
    host: options.host ?? '127.0.0.1',
    dataDir: options.dataDir ? resolve(options.dataDir) : undefined,
    logger: { info: console.log, warn: console.warn, error: console.error },
  });
  process.stdout.write(
    `soroban sandbox ready\n  rpc:        ${sandbox.rpcUrl}\n  friendbot:  ${sandbox.friendbotUrl}\n  passphrase: ${sandbox.networkPassphrase}\n`,
  );
  await new Promise<void>((done) => {
    const stop = () => {
      sandbox.stop().then(done, done);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return undefined;
}
