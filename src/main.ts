import { loadConfig } from './platform/config/config.ts';
import { keepTickObjectShape } from './platform/scheduling/tick-object-shape.ts';
import { startService } from './service.ts';

function describe(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') {
    const { address, port } = error as { address?: string; port?: number };
    return `port ${port ?? ''} on ${address ?? ''} is already in use (set PORT to another port)`;
  }
  return (error as Error).message ?? String(error);
}

async function main(): Promise<void> {
  await keepTickObjectShape();
  const config = loadConfig();
  const service = await startService(config);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    service.app.log.info({ signal }, 'stopping');
    service.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`chaingate: cannot start: ${describe(error)}\n`);
  process.exit(1);
});
