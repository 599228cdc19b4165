import { base36 } from 'multiformats/bases/base36';
import { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { ipfsClient, storedBlockFiles, uploadForm } from './support/ipfs-client.ts';

const HELLO = 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o';
const FIVE_CHUNKS = 'QmNg7BJo8gEMDK8yGQbHEwPtycesnE6FUULX5iVd5TAL9f';
const EMPTY = 'QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH';
const MAX_UPLOAD = 3 * 1024 * 1024;

let service: TestService;
let ipfs: ReturnType<typeof ipfsClient>;

beforeAll(async () => {
  service = await startTestService({
    CHAINGATE_DEVNET: '0',
    CHAINGATE_SOROBAN: '0',
    CHAINGATE_IPFS_MAX_UPLOAD_BYTES: String(MAX_UPLOAD),
  });
  ipfs = ipfsClient(service.url, service.auth);
});
afterAll(async () => service?.close());

describe('file upload', () => {
  it('answers 201 with the gateway URL as hash and url; the CID is the one `ipfs add` gives', async () => {
    const answer = await ipfs.upload(
      uploadForm({ filename: 'hello.txt', file: new TextEncoder().encode('hello world\n') }),
    );
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      hash: `${service.url}/ipfs/${HELLO}`,
      url: `${service.url}/ipfs/${HELLO}`,
      cid: HELLO,
    });
    const served = await ipfs.get(`/ipfs/${HELLO}`);
    expect(served.status).toBe(200);
    expect(served.text).toBe('hello world\n');
    expect(served.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(served.headers.get('etag')).toBe(`"${HELLO}"`);
    expect(served.headers.get('cache-control')).toBe('public, max-age=29030400, immutable');
  });

  it('stores a multi-chunk file and an empty file with their published CIDs', async () => {
    const big = await ipfs.upload(uploadForm({ filename: 'zeros.bin', file: new Uint8Array(1310710) }));
    expect(big.status).toBe(201);
    expect((big.body as { cid: string }).cid).toBe(FIVE_CHUNKS);
    const served = await ipfs.get(`/ipfs/${FIVE_CHUNKS}`);
    expect(served.bytes.length).toBe(1310710);
    expect(served.bytes.every((byte) => byte === 0)).toBe(true);
    expect(served.headers.get('content-type')).toBe('application/octet-stream');

    const empty = await ipfs.upload(uploadForm({ filename: 'empty.txt', file: new Uint8Array() }));
    expect(empty.status).toBe(201);
    expect((empty.body as { cid: string }).cid).toBe(EMPTY);
    const servedEmpty = await ipfs.get(`/ipfs/${EMPTY}`);
    expect(servedEmpty.status).toBe(200);
    expect(servedEmpty.headers.get('content-length')).toBe('0');
  });

  it('takes the file before the filename too, and types the file from its bytes and its name', async () => {
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(100, 7)]);
    const answer = await ipfs.upload(uploadForm({ filename: 'picture', file: png, fileFirst: true }));
    expect(answer.status).toBe(201);
    const served = await ipfs.get(`/ipfs/${(answer.body as { cid: string }).cid}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    const svg = await ipfs.upload(
      uploadForm({
        filename: 'logo.svg',
        file: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      }),
    );
    const servedSvg = await ipfs.get(`/ipfs/${(svg.body as { cid: string }).cid}`);
    expect(servedSvg.headers.get('content-type')).toBe('image/svg+xml');
    expect(servedSvg.headers.get('content-security-policy')).toBe('sandbox');
  });

  it('answers 400 naming each missing field, and keeps nothing', async () => {
    const before = storedBlockFiles(service.dataDir);
    const noName = await ipfs.upload(uploadForm({ file: new TextEncoder().encode('unnamed upload') }));
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({
      code: 'CG_ERR_VALIDATION',
      message: expect.stringContaining("'filename'"),
    });
    const noFile = await ipfs.upload(uploadForm({ filename: 'x.txt' }));
    expect(noFile.status).toBe(400);
    expect((noFile.body as { message: string }).message).toContain("'file'");
    const nothing = await ipfs.upload(new FormData());
    expect((nothing.body as { message: string }).message).toContain("'filename', 'file'");
    const unknown = await ipfs.upload(
      (() => {
        const form = uploadForm({ filename: 'a.txt', file: new TextEncoder().encode('abc') });
        form.append('colour', 'blue');
        return form;
      })(),
    );
    expect(unknown.status).toBe(400);
    expect((unknown.body as { message: string }).message).toContain('colour');
    const json = await fetch(`${service.url}/ipfs/v2/file/upload`, {
      method: 'POST',
      headers: { ...service.auth, 'content-type': 'application/json' },
      body: '{"filename":"a"}',
    });
    expect(json.status).toBe(415);
    expect(storedBlockFiles(service.dataDir)).toEqual(before);
  });

  it('answers 413 over the limit and stores nothing of it', async () => {
    const before = storedBlockFiles(service.dataDir);
    const listed = await ipfs.list();
    const tooBig = new Uint8Array(MAX_UPLOAD + 1).fill(1);
    const answer = await ipfs.upload(uploadForm({ filename: 'big.bin', file: tooBig }));
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ code: 'CG_ERR_BODY_TOO_LARGE' });
    expect(storedBlockFiles(service.dataDir)).toEqual(before);
    expect((await ipfs.list()).body).toEqual(listed.body);
    // Exactly at the limit is fine.
    const atLimit = await ipfs.upload(
      uploadForm({ filename: 'limit.bin', file: new Uint8Array(MAX_UPLOAD).fill(1) }),
    );
    expect(atLimit.status).toBe(201);
  });

  it('answers 401 without credentials, on every endpoint but the gateway', async () => {
    const none = {};
    expect((await ipfs.upload(uploadForm({ filename: 'a', file: new Uint8Array(1) }), none)).status).toBe(
      401,
    );
    expect(
      (await ipfs.metadata({ name: 'a', image: 'https://x.invalid/a.png', description: 'd' }, none)).status,
    ).toBe(401);
    expect((await ipfs.uploadZip(new Uint8Array(10), none)).status).toBe(401);
    expect((await ipfs.list('', none)).status).toBe(401);
    expect((await ipfs.unpin(HELLO, none)).status).toBe(401);
    const wrong = { authorization: 'Bearer nope', 'x-application-svc': service.credentials.applicationId };
    expect((await ipfs.list('', wrong)).status).toBe(401);
    expect((await ipfs.get(`/ipfs/${HELLO}`)).status).toBe(200);
  });

  it('keeps nothing of an upload the client drops half way', async () => {
    const before = storedBlockFiles(service.dataDir);
    const boundary = 'cut-short-boundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="filename"\r\n\r\ncut.bin\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    let sent = 0;
    let stagedBeforeDrop = 0;
    const isStaged = (path: string) => path.includes('/ipfs/staging/');
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode(head));
        if (sent >= 8) {
          // Give up only once the server has staged blocks of this upload.
          for (
            let attempt = 0;
            attempt < 200 && !storedBlockFiles(service.dataDir).some(isStaged);
            attempt++
          ) {
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          stagedBeforeDrop = storedBlockFiles(service.dataDir).filter(isStaged).length;
          return controller.error(new Error('client gave up'));
        }
        controller.enqueue(new Uint8Array(300_000).fill(sent + 1));
        sent++;
      },
    });
    await expect(
      fetch(`${service.url}/ipfs/v2/file/upload`, {
        method: 'POST',
        headers: { ...service.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: 'half',
      } as RequestInit),
    ).rejects.toThrow();
    // The server notices the dropped connection on its own schedule: wait until staging is empty again.
    for (
      let attempt = 0;
      attempt < 100 && storedBlockFiles(service.dataDir).length !== before.length;
      attempt++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(stagedBeforeDrop).toBeGreaterThan(0);
    expect(storedBlockFiles(service.dataDir)).toEqual(before);
    const listed = (await ipfs.list()).body as { files: { filename: string }[] };
    expect(listed.files.map((file) => file.filename)).not.toContain('cut.bin');
  });

  it('documents the endpoints in the OpenAPI document', async () => {
    const openapi = (await ipfs.get('/openapi.json')).body as { paths: Record<string, unknown> };
    for (const path of [
      '/ipfs/v2/file/upload',
      '/ipfs/v2/file/metadata',
      '/ipfs/v2/upload/zip',
      '/ipfs/v2/files',
      '/ipfs/v2/files/{cid}',
    ]) {
      expect(openapi.paths, path).toHaveProperty([path]);
    }
    expect(Object.keys(openapi.paths).some((path) => path.startsWith('/ipfs/{'))).toBe(true);
  });

  it('accepts a doubled slash in the path', async () => {
    const answer = await fetch(`${service.url}/ipfs/v2//file/upload`, {
      method: 'POST',
      headers: service.auth,
      body: uploadForm({ filename: 'hello.txt', file: new TextEncoder().encode('hello world\n') }),
    });
    expect(answer.status).toBe(201);
  });
});

describe('gateway', () => {
  it('serves a Range as 206, a suffix range, and 416 past the end', async () => {
    const part = await ipfs.get(`/ipfs/${HELLO}`, { range: 'bytes=0-4' });
    expect(part.status).toBe(206);
    expect(part.text).toBe('hello');
    expect(part.headers.get('content-range')).toBe('bytes 0-4/12');
    expect(part.headers.get('content-length')).toBe('5');
    const suffix = await ipfs.get(`/ipfs/${HELLO}`, { range: 'bytes=-6' });
    expect(suffix.text).toBe('world\n');
    const open = await ipfs.get(`/ipfs/${FIVE_CHUNKS}`, { range: 'bytes=262140-' });
    expect(open.status).toBe(206);
    expect(open.bytes.length).toBe(1310710 - 262140);
    const past = await ipfs.get(`/ipfs/${HELLO}`, { range: 'bytes=12-' });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */12');
    expect(past.body).toMatchObject({ code: 'CG_ERR_RANGE_NOT_SATISFIABLE' });
    const several = await ipfs.get(`/ipfs/${HELLO}`, { range: 'bytes=0-1,3-4' });
    expect(several.status).toBe(200);
  });

  it('answers HEAD with the headers and no body, and 304 to a matching If-None-Match', async () => {
    const head = await ipfs.get(`/ipfs/${FIVE_CHUNKS}`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('1310710');
    expect(head.headers.get('etag')).toBe(`"${FIVE_CHUNKS}"`);
    expect(head.bytes.length).toBe(0);
    const cached = await ipfs.get(`/ipfs/${HELLO}`, { 'if-none-match': `"${HELLO}"` });
    expect(cached.status).toBe(304);
    expect(cached.bytes.length).toBe(0);
    expect((await ipfs.get(`/ipfs/${HELLO}`, { 'if-none-match': `W/"${HELLO}", "other"` })).status).toBe(304);
    expect((await ipfs.get(`/ipfs/${HELLO}`, { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('answers 404 for an unknown CID and 400 for a malformed one', async () => {
    const unknown = await ipfs.get('/ipfs/QmVr26fY1tKyspEJBniVhqxQeEjhF78XerGiqWAwraVLQH');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'CG_ERR_NOT_FOUND' });
    for (const bad of ['not-a-cid', 'Qm123', 'bafyNOTBASE32!', `${HELLO.slice(0, -1)}0`]) {
      const answer = await ipfs.get(`/ipfs/${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.body).toMatchObject({ code: 'CG_ERR_BAD_REQUEST' });
    }
    expect((await ipfs.get(`/ipfs/${HELLO}/no/such/path`)).status).toBe(404);
  });

  it('resolves the CIDv1 forms of a stored DAG', async () => {
    const v1 = CID.parse(FIVE_CHUNKS).toV1();
    for (const form of [v1.toString(), v1.toString(base36)]) {
      const answer = await ipfs.get(`/ipfs/${form}`, { range: 'bytes=0-9' });
      expect(answer.status, form).toBe(206);
      expect(answer.bytes.length).toBe(10);
    }
  });
});
