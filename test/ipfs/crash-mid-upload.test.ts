import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../src/platform/net/free-port.ts';
import { type ServerProcess, spawnServer, waitForHealthy } from '../support/server-process.ts';
import { ipfsClient, storedBlockFiles, uploadForm } from './support/ipfs-client.ts';

const HELLO = 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o';
const dataDir = mkdtempSync(join(tmpdir(), 'chaingate-ipfs-crash-'));
const running: ServerProcess[] = [];

async function startServer(): Promise<{ url: string; server: ServerProcess }> {
  const port = await findFreePort();
  const server = spawnServer({
    PORT: String(port),
    CHAINGATE_DATA_DIR: dataDir,
    CHAINGATE_DEVNET: '0',
    CHAINGATE_SOROBAN: '0',
    LOG_LEVEL: 'warn',
  });
  running.push(server);
  const url = `http://127.0.0.1:${port}`;
  await waitForHealthy(url, server);
  return { url, server };
}

afterAll(async () => {
  for (const server of running) {
    if (server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const blocksOnly = () => storedBlockFiles(dataDir).filter((path) => path.includes('/ipfs/blocks/'));
const staged = () => storedBlockFiles(dataDir).filter((path) => path.includes('/ipfs/staging/'));

describe('a server killed in the middle of an upload', () => {
  it('serves nothing of that upload after a restart, and everything stored before it', async () => {
    const first = await startServer();
    const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as {
      applicationId: string;
      apiKey: string;
    };
    const auth = {
      authorization: `Bearer ${credentials.apiKey}`,
      'x-application-svc': credentials.applicationId,
    };
    const before = ipfsClient(first.url, auth);
    expect(
      (
        await before.upload(
          uploadForm({ filename: 'hello.txt', file: new TextEncoder().encode('hello world\n') }),
        )
      ).status,
    ).toBe(201);
    const blocksBefore = blocksOnly();

    // An upload that sends 6 MiB and then waits: its blocks are in staging when the server dies.
    const boundary = 'crash-boundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="filename"\r\n\r\ncrash.bin\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="crash.bin"\r\n\r\n`;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode(head));
        if (sent >= 24) return new Promise<void>(() => undefined);
        controller.enqueue(new Uint8Array(256 * 1024).fill(sent + 1));
        sent++;
      },
    });
    const upload = fetch(`${first.url}/ipfs/v2/file/upload`, {
      method: 'POST',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit).catch((error: Error) => error);
    for (let attempt = 0; attempt < 600 && staged().length < 4; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(staged().length).toBeGreaterThanOrEqual(4);
    first.server.child.kill('SIGKILL');
    await first.server.exited;
    expect(await upload).toBeInstanceOf(Error);

    const second = await startServer();
    const after = ipfsClient(second.url, auth);
    expect(readdirSync(join(dataDir, 'ipfs', 'staging'))).toEqual([]);
    expect(blocksOnly()).toEqual(blocksBefore);
    expect((await after.get(`/ipfs/${HELLO}`)).text).toBe('hello world\n');
    const listed = (await after.list()).body as { files: { filename: string }[] };
    expect(listed.files.map((file) => file.filename)).toEqual(['hello.txt']);
  });
});
