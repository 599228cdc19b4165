import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { buildScriptProject, uploadZip, waitForBuild, zipFiles } from './support/projects.ts';

/** Two services, each with one tight limit (their builds are tiny crates whose build.rs breaks it), and one without bubblewrap. */
let timeLimited: TestService;
let memoryLimited: TestService;
let withoutSandbox: TestService;

beforeAll(async () => {
  [timeLimited, memoryLimited, withoutSandbox] = await Promise.all([
    startTestService({ CHAINGATE_DEVNET: '0', LOG_LEVEL: 'error', CHAINGATE_BUILD_TIMEOUT_SECONDS: '5' }),
    startTestService({ CHAINGATE_DEVNET: '0', LOG_LEVEL: 'error', CHAINGATE_BUILD_MEMORY_MB: '768' }),
    startTestService({
      CHAINGATE_DEVNET: '0',
      CHAINGATE_SOROBAN: '0',
      LOG_LEVEL: 'error',
      CHAINGATE_BWRAP: '/nonexistent/bwrap',
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([timeLimited?.close(), memoryLimited?.close(), withoutSandbox?.close()]);
});

/** Command lines of the machine's processes that mention `word`. */
function processesMentioning(word: string): string[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        return command.includes(word) ? [command] : [];
      } catch {
        return [];
      }
    });
}

it('stops a build that runs out of time, kills all of it, and says why in its log', async () => {
  const call = apiClient(timeLimited.url, timeLimited.auth);
  const buildRs =
    'fn main() {\n    eprintln!("sleepy build script started");\n' +
    '    loop {\n        std::thread::sleep(std::time::Duration::from_millis(100));\n    }\n}\n';
  const upload = await uploadZip(
    timeLimited.url,
    timeLimited.auth,
    zipFiles(buildScriptProject('sleepy', buildRs)),
  );
  expect(upload.status).toBe(201);
  const status = await waitForBuild(call, upload.body.filename);
  expect(status.status).toBe('failed');
  expect(status.reason).toBe(
    'the build ran out of time: it was stopped after 5 seconds (CHAINGATE_BUILD_TIMEOUT_SECONDS)',
  );
  expect(status.log).toContain(`chaingate: ${status.reason}`);
  // The whole sandbox went with it: no build script of that crate is left running.
  expect(processesMentioning('sleepy-')).toEqual([]);
});

it('fails a build that runs out of memory, with the reason in its log', async () => {
  const call = apiClient(memoryLimited.url, memoryLimited.auth);
  // 16 GiB of zeroed (untouched) memory: only the address-space limit refuses it.
  const buildRs =
    'fn main() {\n    let blocks: Vec<Vec<u8>> = (0..16).map(|_| vec![0u8; 1 << 30]).collect();\n' +
    '    println!("cargo:warning=allocated {} GiB", blocks.len());\n}\n';
  const upload = await uploadZip(
    memoryLimited.url,
    memoryLimited.auth,
    zipFiles(buildScriptProject('greedy', buildRs)),
  );
  expect(upload.status).toBe(201);
  const status = await waitForBuild(call, upload.body.filename);
  expect(status.status).toBe('failed');
  expect(status.log).toContain('memory allocation of 1073741824 bytes failed');
  expect(status.reason).toBe(
    'the build ran out of memory: each of its processes may use 768 MiB (CHAINGATE_BUILD_MEMORY_MB)',
  );
  expect(status.log).toContain(`chaingate: ${status.reason}`);
});

it('answers 503 naming what is missing when projects cannot be compiled, and queues nothing', async () => {
  const upload = await uploadZip(
    withoutSandbox.url,
    withoutSandbox.auth,
    zipFiles(buildScriptProject('unbuilt', 'fn main() {}\n')),
  );
  expect(upload.status).toBe(503);
  expect(upload.body).toMatchObject({
    code: 'CG_ERR_STELLAR_BUILD_UNAVAILABLE',
    message: 'compilation is unavailable: bubblewrap (CHAINGATE_BWRAP) is missing (/nonexistent/bwrap)',
  });
  expect(await withoutSandbox.platform.db.query('SELECT filename FROM soroban_builds')).toEqual([]);
});
