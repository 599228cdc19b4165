import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { buildZip } from '../support/zip-builder.ts';
import { ipfsClient, uploadForm } from './support/ipfs-client.ts';
import { KuboStandIn } from './support/kubo-stand-in.ts';

const HELLO = 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o';
const FIVE_CHUNKS = 'QmNg7BJo8gEMDK8yGQbHEwPtycesnE6FUULX5iVd5TAL9f';
const PLANETS = 'QmWSgS32xQEcXMeqd3YPJLrNBLSdsfYCep2U7CFkyrjXwY';
const MOONS = 'QmbGoaQZm8kjYfCiN1aBsgwhqfUBGDYTrDb91Mz7Dvq81B';
const MAX_UPLOAD = 2 * 1024 * 1024;
const text = (value: string) => new TextEncoder().encode(value);

let kubo: KuboStandIn;
let service: TestService;
let ipfs: ReturnType<typeof ipfsClient>;

beforeAll(async () => {
  kubo = await new KuboStandIn().start();
  service = await startTestService({
    CHAINGATE_DEVNET: '0',
    CHAINGATE_SOROBAN: '0',
    CHAINGATE_IPFS_BACKEND: 'kubo',
    CHAINGATE_IPFS_KUBO_URL: kubo.url,
    CHAINGATE_IPFS_MAX_UPLOAD_BYTES: String(MAX_UPLOAD),
  });
  ipfs = ipfsClient(service.url, service.auth);
});
afterAll(async () => {
  await service?.close();
  await kubo?.stop();
});

const cidOf = (answer: { body: unknown }) => (answer.body as { cid: string }).cid;
const addCalls = () => kubo.calls.filter((call) => call.path === '/api/v0/add');

describe('the Kubo backend', () => {
  it('pins uploads on the node with `ipfs add` defaults; the same CIDs come back', async () => {
    const hello = await ipfs.upload(uploadForm({ filename: 'hello.txt', file: text('hello world\n') }));
    expect(hello.status).toBe(201);
    expect(cidOf(hello)).toBe(HELLO);
    expect(addCalls().at(-1)?.query).toMatchObject({
      'cid-version': '0',
      pin: 'true',
      'raw-leaves': 'false',
    });
    expect(kubo.pins.has(HELLO)).toBe(true);
    const big = await ipfs.upload(uploadForm({ filename: 'zeros.bin', file: new Uint8Array(1310710) }));
    expect(cidOf(big)).toBe(FIVE_CHUNKS);
    const metadata = await ipfs.metadata({ name: 'n', image: 'https://x.invalid/i.png', description: 'd' });
    expect(metadata.status).toBe(201);
    expect(kubo.pins.has(cidOf(metadata))).toBe(true);
    // Nothing went to the embedded block store.
    expect(readdirSync(join(service.dataDir, 'ipfs'))).not.toContain('blocks');
  });

  it('sends zip folders as `ipfs add -r` does (multipart folders and paths)', async () => {
    const planets = await ipfs.uploadZip(
      buildZip([
        { name: 'mars.txt', data: text('Hello Mars!\n'), deflate: true },
        { name: 'venus.txt', data: text('Hello Venus!\n') },
      ]),
    );
    expect(cidOf(planets)).toBe(PLANETS);
    const moons = await ipfs.uploadZip(
      buildZip([
        { name: 'jupiter/europa.txt', data: text('Hello Europa!\n') },
        { name: 'saturn/', data: undefined },
        { name: 'saturn/titan.txt', data: text('Hello Titan!\n') },
        { name: 'mercury.txt', data: text('hey you are no moon!\n') },
      ]),
    );
    expect(cidOf(moons)).toBe(MOONS);
    expect(kubo.pins.has(MOONS)).toBe(true);
  });

  it('serves the gateway from the node: cat with offset/length for ranges, 404 for an unknown CID', async () => {
    const whole = await ipfs.get(`/ipfs/${HELLO}`);
    expect(whole.text).toBe('hello world\n');
    expect(whole.headers.get('etag')).toBe(`"${HELLO}"`);
    const part = await ipfs.get(`/ipfs/${FIVE_CHUNKS}`, { range: 'bytes=262140-262149' });
    expect(part.status).toBe(206);
    expect(part.bytes.length).toBe(10);
    expect(kubo.calls.filter((call) => call.path === '/api/v0/cat').at(-1)?.query).toMatchObject({
      arg: FIVE_CHUNKS,
      offset: '262140',
      length: '10',
      offline: 'true',
    });
    expect((await ipfs.get(`/ipfs/${PLANETS}/venus.txt`)).text).toBe('Hello Venus!\n');
    expect((await ipfs.get(`/ipfs/${MOONS}/jupiter`, { accept: 'application/json' })).status).toBe(200);
    expect((await ipfs.get('/ipfs/QmVr26fY1tKyspEJBniVhqxQeEjhF78XerGiqWAwraVLQH')).status).toBe(404);
    expect((await ipfs.get('/ipfs/QmNotACid')).status).toBe(400);
  });

  it('sends nothing to the node for an upload over the limit', async () => {
    const before = addCalls().length;
    const answer = await ipfs.upload(
      uploadForm({ filename: 'big.bin', file: new Uint8Array(MAX_UPLOAD + 1) }),
    );
    expect(answer.status).toBe(413);
    expect(addCalls().length).toBe(before);
    const missing = await ipfs.upload(uploadForm({ file: text('no name') }));
    expect(missing.status).toBe(400);
    expect(addCalls().length).toBe(before);
  });

  it('unpins on the node once no application holds the CID', async () => {
    expect((await ipfs.unpin(HELLO)).status).toBe(200);
    expect(
      kubo.calls.filter((call) => call.path === '/api/v0/pin/rm').map((call) => call.query.arg),
    ).toContain(HELLO);
    expect(kubo.pins.has(HELLO)).toBe(false);
    kubo.gc();
    expect((await ipfs.get(`/ipfs/${HELLO}`)).status).toBe(404);
  });
});

describe('a Kubo node that misbehaves', () => {
  it('answers 503 when the node is down, and records nothing', async () => {
    const other = await new KuboStandIn().start();
    const down = await startTestService({
      CHAINGATE_DEVNET: '0',
      CHAINGATE_SOROBAN: '0',
      CHAINGATE_IPFS_BACKEND: 'kubo',
      CHAINGATE_IPFS_KUBO_URL: other.url,
    });
    try {
      await other.stop();
      const client = ipfsClient(down.url, down.auth);
      const answer = await client.upload(uploadForm({ filename: 'a.txt', file: text('a\n') }));
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ code: 'CG_ERR_DEPENDENCY' });
      expect((answer.body as { message: string }).message).not.toContain(other.url);
      expect(((await client.list()).body as { total: number }).total).toBe(0);
      expect((await client.get(`/ipfs/${HELLO}`)).status).toBe(503);
    } finally {
      await down.close();
    }
  });

  it('refuses a node whose import settings give other CIDs, and leaves nothing pinned', async () => {
    const v1 = await new KuboStandIn({ forceCidVersion: 1 }).start();
    const wrong = await startTestService({
      CHAINGATE_DEVNET: '0',
      CHAINGATE_SOROBAN: '0',
      CHAINGATE_IPFS_BACKEND: 'kubo',
      CHAINGATE_IPFS_KUBO_URL: v1.url,
    });
    try {
      const client = ipfsClient(wrong.url, wrong.auth);
      // One block: the same DAG in any CID version, so accepted (answered as CIDv0).
      const single = await client.upload(uploadForm({ filename: 'a.txt', file: text('hello world\n') }));
      expect(cidOf(single)).toBe(HELLO);
      expect((await client.unpin(HELLO)).status).toBe(200);
      // Several blocks: the links inside differ, so the root does.
      const answer = await client.upload(uploadForm({ filename: 'z.bin', file: new Uint8Array(1310710) }));
      expect(answer.status).toBe(503);
      expect((answer.body as { message: string }).message).toContain('different CID');
      expect(v1.pins.size).toBe(0);
      expect(((await client.list()).body as { total: number }).total).toBe(0);
    } finally {
      await wrong.close();
      await v1.stop();
    }
  });
});
