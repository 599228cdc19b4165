import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../support/postgres-server.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { buildZip } from '../support/zip-builder.ts';
import { ipfsClient, storedBlockFiles, uploadForm } from './support/ipfs-client.ts';

const HELLO = 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o';
const FIVE_CHUNKS = 'QmNg7BJo8gEMDK8yGQbHEwPtycesnE6FUULX5iVd5TAL9f';
const env = { CHAINGATE_DEVNET: '0', CHAINGATE_SOROBAN: '0' };
const text = (value: string) => new TextEncoder().encode(value);

/** This file runs on PostgreSQL (the other IPFS tests on the embedded PGlite): the same named queries. */
let databaseUrl: string;
let dataDir: string;
let service: TestService;
let alice: ReturnType<typeof ipfsClient>;
let bob: ReturnType<typeof ipfsClient>;

async function start() {
  service = await startTestService({ ...env, CHAINGATE_DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
  alice = ipfsClient(service.url, service.auth);
  const created = await fetch(`${service.url}/admin/v1/applications`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${service.credentials.adminToken}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ name: `bob-${Date.now()}`, plan: 'free' }),
  });
  const bobApp = (await created.json()) as { applicationId: string; apiKey: string };
  bob = ipfsClient(service.url, {
    authorization: `Bearer ${bobApp.apiKey}`,
    'x-application-svc': bobApp.applicationId,
  });
}

beforeAll(async () => {
  databaseUrl = await createDatabase(inject('postgresUrl'));
  dataDir = mkdtempSync(join(tmpdir(), 'chaingate-ipfs-pins-'));
  await start();
});
afterAll(async () => {
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const cidOf = (answer: { body: unknown }) => (answer.body as { cid: string }).cid;

describe('per-application records', () => {
  it('lists only the caller’s uploads, newest first, paged', async () => {
    for (const name of ['one.txt', 'two.txt', 'three.txt']) {
      expect((await alice.upload(uploadForm({ filename: name, file: text(`${name}\n`) }))).status).toBe(201);
    }
    await bob.upload(uploadForm({ filename: 'bob.txt', file: text('bob\n') }));
    const first = await alice.list('?page=1&pageSize=2');
    expect(first.status).toBe(200);
    const body = first.body as {
      files: Record<string, unknown>[];
      total: number;
      page: number;
      pageSize: number;
    };
    expect(body).toMatchObject({ page: 1, pageSize: 2, total: 3 });
    expect(body.files.map((file) => file.filename)).toEqual(['three.txt', 'two.txt']);
    expect(body.files[0]).toEqual({
      cid: expect.stringMatching(/^Qm/),
      url: `${service.url}/ipfs/${body.files[0]?.cid}`,
      filename: 'three.txt',
      kind: 'file',
      size: 10,
      contentType: 'text/plain; charset=utf-8',
      createdAt: expect.stringMatching(/Z$/),
    });
    const second = (await alice.list('?page=2&pageSize=2')).body as { files: { filename: string }[] };
    expect(second.files.map((file) => file.filename)).toEqual(['one.txt']);
    const bobs = (await bob.list()).body as { files: { filename: string }[]; total: number };
    expect(bobs.files.map((file) => file.filename)).toEqual(['bob.txt']);
    expect((await alice.list('?pageSize=0')).status).toBe(400);
    expect((await alice.list('?pageSize=101')).status).toBe(400);
    expect((await alice.list('?page=x')).status).toBe(400);
  });

  it('unpins only the caller’s own uploads; content another application holds stays', async () => {
    const uploaded = await alice.upload(uploadForm({ filename: 'hello.txt', file: text('hello world\n') }));
    expect(cidOf(uploaded)).toBe(HELLO);
    expect((await bob.unpin(HELLO)).status).toBe(404);
    expect((await alice.get(`/ipfs/${HELLO}`)).status).toBe(200);
    await bob.upload(uploadForm({ filename: 'same.txt', file: text('hello world\n') }));
    const unpinned = await alice.unpin(HELLO);
    expect(unpinned.status).toBe(200);
    expect(unpinned.body).toEqual({ cid: HELLO, removed: 1 });
    expect((await alice.get(`/ipfs/${HELLO}`)).text).toBe('hello world\n');
    expect((await alice.unpin(HELLO)).status).toBe(404);
    expect((await bob.unpin(HELLO)).status).toBe(200);
    expect((await alice.get(`/ipfs/${HELLO}`)).status).toBe(404);
    expect((await alice.unpin('not-a-cid')).status).toBe(400);
  });

  it('keeps a block that another stored DAG shares, and deletes the rest', async () => {
    const before = storedBlockFiles(service.dataDir);
    const shared = text('shared between a file and a folder\n');
    const single = await alice.upload(uploadForm({ filename: 'shared.txt', file: shared }));
    const folder = await alice.uploadZip(
      buildZip([
        { name: 'shared.txt', data: shared },
        { name: 'own.txt', data: text('own\n') },
      ]),
    );
    expect(folder.status).toBe(201);
    expect((await alice.unpin(cidOf(single))).status).toBe(200);
    expect((await alice.get(`/ipfs/${cidOf(single)}`)).status).toBe(200);
    expect((await alice.get(`/ipfs/${cidOf(folder)}/shared.txt`)).status).toBe(200);
    expect((await alice.unpin(cidOf(folder))).status).toBe(200);
    expect((await alice.get(`/ipfs/${cidOf(single)}`)).status).toBe(404);
    expect((await alice.get(`/ipfs/${cidOf(folder)}`)).status).toBe(404);
    expect(storedBlockFiles(service.dataDir)).toEqual(before);
  });

  it('accepts any CID form when unpinning', async () => {
    const big = await alice.upload(uploadForm({ filename: 'zeros.bin', file: new Uint8Array(1310710) }));
    expect(cidOf(big)).toBe(FIVE_CHUNKS);
    const { CID } = await import('multiformats/cid');
    expect((await alice.unpin(CID.parse(FIVE_CHUNKS).toV1().toString())).body).toEqual({
      cid: FIVE_CHUNKS,
      removed: 1,
    });
    expect((await alice.get(`/ipfs/${FIVE_CHUNKS}`)).status).toBe(404);
  });
});

describe('restart', () => {
  it('serves every stored file after a restart, and drops what a cut-short upload left in staging', async () => {
    const kept = await alice.upload(
      uploadForm({ filename: 'kept.bin', file: new Uint8Array(700_000).fill(9) }),
    );
    const zip = await alice.uploadZip(buildZip([{ name: 'a/b.json', data: text('{"b":1}') }]));
    // Gateway URLs follow the server's address, which a restart on port 0 changes: compare the rest.
    const records = async () =>
      ((await alice.list('?pageSize=100')).body as { files: { cid: string; url?: string }[] }).files.map(
        ({ url: _url, ...record }) => record,
      );
    const listed = await records();
    await service.close();

    // What an upload killed half way leaves: a staging folder with a partial block file.
    const staging = join(dataDir, 'ipfs', 'staging', 'killed-upload');
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(staging, 'ciqhalfablock'), 'half a bl');

    await start();
    expect(readdirSync(join(dataDir, 'ipfs', 'staging'))).toEqual([]);
    const served = await alice.get(`/ipfs/${cidOf(kept)}`);
    expect(served.bytes.length).toBe(700_000);
    expect(served.bytes.every((byte) => byte === 9)).toBe(true);
    expect((await alice.get(`/ipfs/${cidOf(zip)}/a/b.json`)).body).toEqual({ b: 1 });
    for (const file of listed) expect((await alice.get(`/ipfs/${file.cid}`)).status, file.cid).toBe(200);
    expect(await records()).toEqual(listed);
  });
});
