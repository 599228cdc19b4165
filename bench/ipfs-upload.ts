/**
 * Upload throughput of `POST /ipfs/v2/file/upload` on the embedded backend, with the server's peak RSS
 * during the upload, beside `sha256sum` of the same file (the floor: one read and one hash, where the
 * upload also chunks, hashes, writes and flushes every block).
 *
 *   node --import tsx bench/ipfs-upload.ts            # 256 MiB
 *   IPFS_BENCH_MIB=1024 node --import tsx bench/ipfs-upload.ts
 */
import { spawnSync } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { closeSync, mkdtempSync, openAsBlob, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '../src/platform/net/free-port.ts';
import { spawnServer, waitForHealthy } from '../test/support/server-process.ts';
import { readRss, sampleRss } from './rss.ts';

const MIB = 1024 * 1024;
const sizeMib = Number(process.env.IPFS_BENCH_MIB ?? 256);

/** Random bytes (no block repeats, so nothing is deduplicated), written in 16 MiB pieces. */
function writeRandomFile(path: string, bytes: number): void {
  const fd = openSync(path, 'w');
  const piece = Buffer.alloc(16 * MIB);
  for (let left = bytes; left > 0; left -= piece.length) {
    randomFillSync(piece);
    writeSync(fd, piece, 0, Math.min(left, piece.length));
  }
  closeSync(fd);
}

function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'chaingate-ipfs-bench-'));
  const dataDir = join(work, 'data');
  const file = join(work, 'upload.bin');
  const bytes = sizeMib * MIB;
  writeRandomFile(file, bytes);

  // Warm the page cache for both runs alike, then time the floor.
  spawnSync('cat', [file], { stdio: ['ignore', 'ignore', 'inherit'] });
  const hashStart = process.hrtime.bigint();
  const sha = spawnSync('sha256sum', [file], { encoding: 'utf8' });
  const hashSeconds = seconds(hashStart);
  if (sha.status !== 0) throw new Error(`sha256sum failed: ${sha.stderr}`);

  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawnServer({
    PORT: String(port),
    CHAINGATE_DATA_DIR: dataDir,
    CHAINGATE_DEVNET: '0',
    CHAINGATE_SOROBAN: '0',
    CHAINGATE_IPFS_MAX_UPLOAD_BYTES: String(bytes + MIB),
    LOG_LEVEL: 'warn',
  });
  try {
    await waitForHealthy(url, server);
    const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as {
      applicationId: string;
      apiKey: string;
    };
    const pid = server.child.pid as number;
    const idleRss = readRss(pid) ?? 0;
    const rss = sampleRss(pid, 50);
    const form = new FormData();
    form.append('filename', 'upload.bin');
    form.append('file', await openAsBlob(file), 'upload.bin');
    const start = process.hrtime.bigint();
    const response = await fetch(`${url}/ipfs/v2/file/upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${credentials.apiKey}`,
        'x-application-svc': credentials.applicationId,
      },
      body: form,
    });
    const answer = await response.text();
    const uploadSeconds = seconds(start);
    const peak = rss.peak();
    rss.stop();
    if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${answer}`);

    const mibPerSecond = (value: number) => (sizeMib / value).toFixed(0);
    console.log(`| what (${sizeMib} MiB of random bytes) | time | MiB/s | server RSS |`);
    console.log('| --- | ---: | ---: | ---: |');
    console.log(`| sha256sum (the floor) | ${hashSeconds.toFixed(2)} s | ${mibPerSecond(hashSeconds)} | |`);
    console.log(
      `| POST /ipfs/v2/file/upload (embedded) | ${uploadSeconds.toFixed(2)} s | ${mibPerSecond(uploadSeconds)} | ` +
        `idle ${(idleRss / MIB).toFixed(0)} MiB, peak ${(peak / MIB).toFixed(0)} MiB |`,
    );
    console.log(`\nanswer: ${answer}`);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
