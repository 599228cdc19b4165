import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { buildZip } from '../support/zip-builder.ts';
import { ipfsClient, storedBlockFiles } from './support/ipfs-client.ts';

const MAX_UPLOAD = 2 * 1024 * 1024;
/** Links carry the configured public base URL (the service behind a proxy), not the listen address. */
const PUBLIC = 'https://chaingate.example.invalid';
const PLANETS = 'QmWSgS32xQEcXMeqd3YPJLrNBLSdsfYCep2U7CFkyrjXwY';
const MOONS = 'QmbGoaQZm8kjYfCiN1aBsgwhqfUBGDYTrDb91Mz7Dvq81B';

let service: TestService;
let ipfs: ReturnType<typeof ipfsClient>;

beforeAll(async () => {
  service = await startTestService({
    CHAINGATE_DEVNET: '0',
    CHAINGATE_SOROBAN: '0',
    CHAINGATE_IPFS_MAX_UPLOAD_BYTES: String(MAX_UPLOAD),
    CHAINGATE_PUBLIC_BASE_URL: `${PUBLIC}/`,
  });
  ipfs = ipfsClient(service.url, service.auth);
});
afterAll(async () => service?.close());

const document = {
  name: 'Gold #1',
  image: 'https://example.invalid/ipfs/QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o',
  description: 'The first gold token',
  edition: '1',
  external_url: 'https://example.invalid/gold/1',
  attributes: [
    { trait_type: 'Colour', value: 'gold' },
    { trait_type: 'Level', value: 5, max_value: 10 },
    { trait_type: 'Power', value: 40, display_type: 'boost_percentage' },
    { trait_type: 'Stamina', value: 3, display_type: 'number', max_value: 9 },
  ],
  data: { nested: [1, 'two', { three: null }], ok: true },
};

describe('metadata upload', () => {
  it('answers 201 with IpfsHash/PinSize/Timestamp in both spellings; the gateway serves the document', async () => {
    const answer = await ipfs.metadata(document);
    expect(answer.status).toBe(201);
    const body = answer.body as Record<string, unknown>;
    const stored = JSON.stringify(document);
    expect(body).toEqual({
      IpfsHash: expect.stringMatching(new RegExp(`^${PUBLIC}/ipfs/Qm[1-9A-HJ-NP-Za-km-z]{44}$`)),
      PinSize: Buffer.byteLength(stored),
      Timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      ipfsHash: body.IpfsHash,
      pinSize: body.PinSize,
      timestamp: body.Timestamp,
      cid: expect.stringMatching(/^Qm/),
    });
    const served = await ipfs.get(new URL(body.IpfsHash as string).pathname);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/json');
    expect(served.text).toBe(stored);
  });

  it('leaves out optional fields sent as null', async () => {
    const answer = await ipfs.metadata({
      name: 'n',
      image: 'ipfs://QmX',
      description: 'd',
      edition: null,
      data: null,
    });
    expect(answer.status).toBe(201);
    const served = await ipfs.get(new URL((answer.body as { IpfsHash: string }).IpfsHash).pathname);
    expect(served.body).toEqual({ name: 'n', image: 'ipfs://QmX', description: 'd' });
  });

  it.each([
    ['a missing name', { ...document, name: undefined }, 'name'],
    ['a missing image', { ...document, image: undefined }, 'image'],
    ['a missing description', { ...document, description: undefined }, 'description'],
    ['an image that is not an absolute URL', { ...document, image: 'gold.png' }, 'image'],
    ['an unknown field', { ...document, colour: 'red' }, 'colour'],
    ['a trait without trait_type', { ...document, attributes: [{ value: 1 }] }, 'trait_type'],
    ['a trait without value', { ...document, attributes: [{ trait_type: 'x' }] }, 'value'],
    [
      'an unknown display_type',
      { ...document, attributes: [{ trait_type: 'x', value: 1, display_type: 'date' }] },
      'display_type',
    ],
    [
      'display_type on a string',
      { ...document, attributes: [{ trait_type: 'x', value: 'a', display_type: 'number' }] },
      'attributes.0.value',
    ],
    [
      'display_type on a fraction',
      { ...document, attributes: [{ trait_type: 'x', value: 1.5, display_type: 'boost_number' }] },
      'attributes.0.value',
    ],
    [
      'max_value with a text value',
      { ...document, attributes: [{ trait_type: 'x', value: 'high', max_value: 10 }] },
      'attributes.0.value',
    ],
    [
      'a fractional max_value',
      { ...document, attributes: [{ trait_type: 'x', value: 1, max_value: 2.5 }] },
      'max_value',
    ],
    ['attributes that are not an array', { ...document, attributes: { trait_type: 'x' } }, 'attributes'],
  ])('answers 400 naming the field for %s', async (_name, body, field) => {
    const answer = await ipfs.metadata(body);
    expect(answer.status).toBe(400);
    expect((answer.body as { message: string }).message).toContain(field);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const answer = await fetch(`${service.url}/ipfs/v2/file/metadata`, {
      method: 'POST',
      headers: { ...service.auth, 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(answer.status).toBe(400);
  });
});

const text = (value: string) => new TextEncoder().encode(value);

describe('zip upload', () => {
  it('stores the contents as the directory `ipfs add -r` gives, served by path', async () => {
    const zip = buildZip([
      { name: 'mars.txt', data: text('Hello Mars!\n'), deflate: true },
      { name: 'venus.txt', data: text('Hello Venus!\n') },
    ]);
    const answer = await ipfs.uploadZip(zip);
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      hash: `${PUBLIC}/ipfs/${PLANETS}`,
      url: `${PUBLIC}/ipfs/${PLANETS}`,
      cid: PLANETS,
    });
    expect((await ipfs.get(`/ipfs/${PLANETS}/mars.txt`)).text).toBe('Hello Mars!\n');
    const listing = await ipfs.get(`/ipfs/${PLANETS}`, { accept: 'application/json' });
    expect(listing.status).toBe(200);
    expect(listing.headers.get('etag')).toBe(`"${PLANETS}"`);
    expect((listing.body as { entries: { name: string }[] }).entries.map((entry) => entry.name)).toEqual([
      'mars.txt',
      'venus.txt',
    ]);
    const html = await ipfs.get(`/ipfs/${PLANETS}/`);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.text).toContain(`/ipfs/${PLANETS}/venus.txt`);
  });

  it('builds nested folders (with or without folder entries) like `ipfs add -r`', async () => {
    const zip = buildZip([
      { name: 'jupiter/', data: undefined },
      { name: 'jupiter/europa.txt', data: text('Hello Europa!\n'), deflate: true },
      { name: 'saturn/titan.txt', data: text('Hello Titan!\n') },
      { name: 'mercury.txt', data: text('hey you are no moon!\n') },
    ]);
    const answer = await ipfs.uploadZip(zip);
    expect((answer.body as { cid: string }).cid).toBe(MOONS);
    expect((await ipfs.get(`/ipfs/${MOONS}/saturn/titan.txt`)).text).toBe('Hello Titan!\n');
    const listed = await ipfs.list();
    expect((listed.body as { files: unknown[] }).files[0]).toMatchObject({
      cid: MOONS,
      kind: 'directory',
      filename: 'collection.zip',
      size: 14 + 13 + 21,
    });
  });

  it('serves names with spaces and non-ASCII characters', async () => {
    const answer = await ipfs.uploadZip(buildZip([{ name: 'été/a b#1.json', data: text('{"x":1}') }]));
    expect(answer.status).toBe(201);
    const served = await ipfs.get(
      `/ipfs/${(answer.body as { cid: string }).cid}/${encodeURIComponent('été')}/${encodeURIComponent('a b#1.json')}`,
    );
    expect(served.status).toBe(200);
    expect(served.body).toEqual({ x: 1 });
    expect(served.headers.get('content-type')).toBe('application/json');
  });

  it.each([
    ['a `..` path', [{ name: '../evil.txt', data: text('x') }]],
    ['a nested `..` path', [{ name: 'a/../../evil.txt', data: text('x') }]],
    ['an absolute path', [{ name: '/etc/evil.txt', data: text('x') }]],
    ['a Windows absolute path', [{ name: 'C:/evil.txt', data: text('x') }]],
    ['a backslash path', [{ name: '..\\evil.txt', data: text('x') }]],
    ['a symbolic link', [{ name: 'link', data: text('/etc/passwd'), symlink: true }]],
    ['a declared size over the limit', [{ name: 'big.bin', data: text('x'), declaredSize: MAX_UPLOAD + 1 }]],
    [
      'a zip bomb that lies about its size',
      [{ name: 'bomb.bin', data: new Uint8Array(MAX_UPLOAD + 4096), deflate: true, declaredSize: 1000 }],
    ],
    [
      'entries that together unpack past the limit',
      [
        { name: 'a.bin', data: new Uint8Array(MAX_UPLOAD / 2 + 10), deflate: true },
        { name: 'b.bin', data: new Uint8Array(MAX_UPLOAD / 2 + 10), deflate: true },
      ],
    ],
    [
      'the same path twice',
      [
        { name: 'a.txt', data: text('1') },
        { name: 'a.txt', data: text('2') },
      ],
    ],
    [
      'a file inside a file',
      [
        { name: 'a', data: text('1') },
        { name: 'a/b', data: text('2') },
      ],
    ],
    ['an empty zip', []],
  ])('answers 400 and stores nothing for %s', async (_name, items) => {
    const before = storedBlockFiles(service.dataDir);
    const answer = await ipfs.uploadZip(buildZip(items));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'CG_ERR_BAD_REQUEST' });
    expect(storedBlockFiles(service.dataDir)).toEqual(before);
  });

  it('answers 400 for bytes that are not a zip', async () => {
    const answer = await ipfs.uploadZip(text('this is not a zip archive'));
    expect(answer.status).toBe(400);
    expect((answer.body as { message: string }).message).toContain('zip');
  });
});
