import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api-client.ts';
import { createDatabase } from '../support/postgres-server.ts';
import { startTestService } from '../support/service.ts';
import { ADDER_PROJECT, uploadZip, waitForBuild, zipFiles } from './support/projects.ts';

/** The adder project as files, its contract given a build script that holds the build for a while. */
function slowAdder(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'target' || entry.name === 'Cargo.lock') continue;
      if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      else files[`${prefix}${entry.name}`] = readFileSync(join(dir, entry.name), 'utf8');
    }
  };
  walk(ADDER_PROJECT, '');
  const manifest = 'contracts/adder/Cargo.toml';
  files[manifest] = (files[manifest] as string).replace(
    'publish = false',
    'publish = false\nbuild = "build.rs"',
  );
  files['contracts/adder/build.rs'] =
    'fn main() {\n    std::thread::sleep(std::time::Duration::from_secs(3));\n}\n';
  return files;
}

let dataDir: string;
let databaseUrl: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cg-build-restart-'));
  databaseUrl = await createDatabase(inject('postgresUrl'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const start = (worker: boolean) =>
  startTestService({
    CHAINGATE_DEVNET: '0',
    LOG_LEVEL: 'error',
    CHAINGATE_DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    CHAINGATE_BUILD_WORKER: worker ? '1' : '0',
  });

it('compiles after a restart a build queued before it, and one interrupted mid-compilation', {
  timeout: 180_000,
}, async () => {
  // A process that compiles nothing queues the upload, then stops.
  const first = await start(false);
  const upload = await uploadZip(first.url, first.auth, zipFiles(slowAdder()), { filename: 'slow.zip' });
  expect(upload.status).toBe(201);
  const call = apiClient(first.url, first.auth);
  expect(
    (await call('GET', `/stellar/v1/contract/upload/${upload.body.filename}/status`)).body,
  ).toMatchObject({
    status: 'queued',
    attempts: 0,
    startedAt: null,
  });
  await first.close();

  // The next one takes it; it is stopped while the build script holds the build.
  const second = await start(true);
  const during = apiClient(second.url, second.auth);
  for (;;) {
    const answer = await during('GET', `/stellar/v1/contract/upload/${upload.body.filename}/status`);
    expect(answer.body.status).not.toMatch(/done|failed/);
    if (answer.body.status === 'compiling') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await second.close();

  // The build was given back to the queue, and the third process compiles it to the end.
  const third = await start(true);
  try {
    const status = await waitForBuild(apiClient(third.url, third.auth), upload.body.filename);
    expect(status, status.log).toMatchObject({
      status: 'done',
      attempts: 1,
      contracts: [{ name: 'adder', contractSpecsId: expect.any(Number) }],
    });
  } finally {
    await third.close();
  }
});
