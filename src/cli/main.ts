import { parseArgs } from 'node:util';
import { CliError, callAdminApi, resolveAdminTarget } from './admin-client.ts';

const usage = `usage: chaingate <command> [options]

commands:
  app create --name <name> [--plan free|premium]   create an application (prints its API key once)
  app list                                         list applications
  app rotate-key <applicationId>                   issue a new API key, revoking the old one
  sender add <applicationId>                       add a sender account to an application
  app callback-key <applicationId>                 the key that signs the application's wallet callbacks
  app rotate-callback-key <applicationId>          replace that key
  callbacks list [--application <id>] [--state pending|delivered|failed]
                                                   wallet callback deliveries, newest first
  callbacks replay <deliveryId>                    deliver a callback again now
  soroban-sandbox [--port N] [--data-dir D]        run a local Soroban network (RPC + friendbot)

options for app/sender/callbacks commands:
  --url <url>            server base URL (default $CHAINGATE_URL or http://127.0.0.1:$PORT|8080)
  --admin-token <token>  admin token (default $CHAINGATE_ADMIN_TOKEN or <data dir>/credentials.json)
  --data-dir <dir>       where credentials.json is (default $CHAINGATE_DATA_DIR or ./data)`;

export async function runCli(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      plan: { type: 'string', default: 'free' },
      url: { type: 'string' },
      'admin-token': { type: 'string' },
      'data-dir': { type: 'string' },
      application: { type: 'string' },
      state: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [group, command, argument] = positionals;
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return undefined;
  }
  if (!group) throw new CliError(usage);
  if (group === 'soroban-sandbox') {
    const { runSorobanSandboxCommand } = await import('./soroban-sandbox-command.ts');
    return runSorobanSandboxCommand({ port: values.port, host: values.host, dataDir: values['data-dir'] });
  }
  const target = () =>
    resolveAdminTarget({ url: values.url, adminToken: values['admin-token'], dataDir: values['data-dir'] });
  const key = `${group} ${command ?? ''}`.trim();
  switch (key) {
    case 'app create': {
      if (!values.name) throw new CliError('app create needs --name');
      if (values.plan !== 'free' && values.plan !== 'premium')
        throw new CliError('--plan must be free or premium');
      return callAdminApi(target(), 'POST', '/admin/v1/applications', {
        name: values.name,
        plan: values.plan,
      });
    }
    case 'app list':
      return callAdminApi(target(), 'GET', '/admin/v1/applications');
    case 'app rotate-key':
      if (!argument) throw new CliError('app rotate-key needs the application id');
      return callAdminApi(
        target(),
        'POST',
        `/admin/v1/applications/${encodeURIComponent(argument)}/rotate-key`,
      );
    case 'sender add':
      if (!argument) throw new CliError('sender add needs the application id');
      return callAdminApi(target(), 'POST', `/admin/v1/applications/${encodeURIComponent(argument)}/senders`);
    case 'app callback-key':
    case 'app rotate-callback-key': {
      if (!argument) throw new CliError(`${key} needs the application id`);
      const path = `/admin/v1/applications/${encodeURIComponent(argument)}/callback-key`;
      return command === 'callback-key'
        ? callAdminApi(target(), 'GET', path)
        : callAdminApi(target(), 'POST', `${path}/rotate`);
    }
    case 'callbacks list': {
      const query = new URLSearchParams();
      if (values.application) query.set('applicationId', values.application);
      if (values.state) query.set('state', values.state);
      return callAdminApi(target(), 'GET', `/admin/v1/callbacks${query.size ? `?${query}` : ''}`);
    }
    case 'callbacks replay':
      if (!argument) throw new CliError('callbacks replay needs the delivery id');
      return callAdminApi(target(), 'POST', `/admin/v1/callbacks/${encodeURIComponent(argument)}/replay`);
    default:
      throw new CliError(`unknown command '${key}'\n\n${usage}`);
  }
}

export async function main(argv = process.argv.slice(2)): Promise<void> {
  try {
    const result = await runCli(argv);
    if (result !== undefined) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } catch (error) {
    process.stderr.write(`chaingate: ${(error as Error).message}\n`);
    process.exitCode = error instanceof CliError ? 2 : 1;
  }
}
