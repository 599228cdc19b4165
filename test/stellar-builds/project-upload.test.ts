import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployAndWait, invokeAndWait, LOCAL } from '../stellar/support/stellar-api.ts';
import { apiClient } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { buildZip, type ZipItem } from '../support/zip-builder.ts';
import {
  ADDER_PROJECT,
  buildScriptProject,
  uploadZip,
  waitForBuild,
  zipFiles,
  zipFolder,
} from './support/projects.ts';

let service: TestService;
let call: ReturnType<typeof apiClient>;
let adder: { filename: string; status: ReturnType<typeof waitForBuild> extends Promise<infer T> ? T : never };

const MAX_UPLOAD = 1024 * 1024;

beforeAll(async () => {
  service = await startTestService({
    CHAINGATE_DEVNET: '0',
    LOG_LEVEL: 'error',
    CHAINGATE_BUILD_MAX_UPLOAD_BYTES: String(MAX_UPLOAD),
  });
  call = apiClient(service.url, service.auth);
  const upload = await uploadZip(service.url, service.auth, zipFolder(ADDER_PROJECT), {
    filename: 'adder.zip',
  });
  expect(upload.status, upload.text).toBe(201);
  adder = { filename: upload.body.filename, status: await waitForBuild(call, upload.body.filename) };
});
afterAll(async () => service?.close());

describe('a Soroban project upload', () => {
  it('answers its unique filename and the contracts of its workspace members', async () => {
    expect(adder.filename).toMatch(/^adder-[0-9a-f]{12}\.zip$/);
    const again = await uploadZip(service.url, service.auth, zipFolder(ADDER_PROJECT), {
      filename: 'adder.zip',
    });
    expect(again.status).toBe(201);
    expect(again.body.contracts).toEqual(['adder']);
    expect(again.body.filename).not.toBe(adder.filename);
  });

  it('compiles it to wasm in the background and saves the contract', () => {
    expect(adder.status, adder.status.log).toMatchObject({
      filename: adder.filename,
      status: 'done',
      reason: null,
      attempts: 1,
      contracts: [{ name: 'adder', contractSpecsId: expect.any(Number) }],
    });
    expect(adder.status.log).toContain('Compiling adder');
    expect(adder.status.log).toContain('Finished release');
    expect(Date.parse(adder.status.finishedAt)).toBeGreaterThanOrEqual(Date.parse(adder.status.startedAt));
  });

  it('deploys the compiled contract and invokes it on the local network through the REST API', async () => {
    const id = adder.status.contracts[0].contractSpecsId as number;
    const methods = await call('GET', `/stellar/v1/contract/${id}/methods`, { blockchainNetwork: LOCAL });
    expect(methods.status).toBe(200);
    expect(methods.body.methods).toEqual(['add(a: u32, b: u32) -> u32', 'increment() -> u32']);
    const address = await deployAndWait(call, id);
    const sum = await invokeAndWait(call, address, 'add', [40, 2]);
    expect(sum).toMatchObject({ status: 'SUCCESS' });
    expect(sum.receipt.result).toBe(42);
    // The counter goes through the host's storage functions, which the contract imports by hand.
    expect((await invokeAndWait(call, address, 'increment', [])).receipt.result).toBe(1);
    expect((await invokeAndWait(call, address, 'increment', [])).receipt.result).toBe(2);
    const overflow = await call('POST', '/stellar/v1/contract/invoke', {
      blockchainNetwork: LOCAL,
      address,
      method: 'add',
      params: [4_294_967_295, 1],
      restore: false,
    });
    expect(overflow.status).toBe(400);
  });

  it('shows a project to its application only, and 404 for an unknown one', async () => {
    const admin = apiClient(service.url, { authorization: `Bearer ${service.credentials.adminToken}` });
    const created = await admin('POST', '/admin/v1/applications', { name: 'other', plan: 'premium' });
    const other = apiClient(service.url, {
      authorization: `Bearer ${created.body.apiKey}`,
      'x-application-svc': created.body.applicationId,
    });
    const hidden = await other('GET', `/stellar/v1/contract/upload/${adder.filename}/status`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe('CG_ERR_NOT_FOUND');
    const unknown = await call('GET', '/stellar/v1/contract/upload/nothing-here.zip/status');
    expect(unknown.status).toBe(404);
    const bad = await call('GET', '/stellar/v1/contract/upload/..%2Fetc/status');
    expect(bad.status).toBe(400);
    const anonymous = await uploadZip(service.url, {}, zipFolder(ADDER_PROJECT));
    expect(anonymous.status).toBe(401);
  });
});

it('documents both endpoints in the OpenAPI document with their error codes', async () => {
  const document = (await call('GET', '/openapi.json')).body;
  const upload = document.paths['/stellar/v1/contract/upload'].post;
  expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
  const codes = (status: string) =>
    upload.responses[status].content['application/json'].schema.properties.code.enum;
  expect(codes('400')).toContain('CG_ERR_STELLAR_NOT_A_CARGO_PROJECT');
  expect(codes('503')).toContain('CG_ERR_STELLAR_BUILD_UNAVAILABLE');
  expect(Object.keys(upload.responses)).toContain('201');
  const status = document.paths['/stellar/v1/contract/upload/{filename}/status'].get;
  expect(status.responses['404'].content['application/json'].schema.properties.code.enum).toContain(
    'CG_ERR_NOT_FOUND',
  );
});

describe('uploads that are refused', () => {
  it('answers 400 for a zip of the folder rather than of its contents, and says so', async () => {
    const answer = await uploadZip(service.url, service.auth, zipFolder(ADDER_PROJECT, 'adder-project'));
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('CG_ERR_STELLAR_NOT_A_CARGO_PROJECT');
    expect(answer.body.message).toContain('the zip holds the folder adder-project rather than its contents');
  });

  const cargo = '[package]\nname = "a"\nversion = "0.1.0"\n\n[lib]\ncrate-type = ["cdylib"]\n';
  const lib = '#![no_std]\n';
  const zeros = Buffer.alloc(8 * MAX_UPLOAD);
  // Each archive holds a valid Cargo.toml and one hostile entry.
  const hostile: Array<[string, ZipItem, string]> = [
    ['a path that leaves the folder', { name: '../escape.rs' }, 'invalid relative path'],
    ['a nested path that leaves the folder', { name: 'src/../../x' }, 'invalid relative path'],
    ['a Windows path that leaves the folder', { name: '..\\x.rs' }, 'invalid characters'],
    ['an absolute path', { name: '/etc/cron.d/evil' }, 'absolute'],
    [
      'a symbolic link',
      { name: 'src/lib.rs', data: Buffer.from('/etc/passwd'), symlink: true },
      'symbolic link',
    ],
    [
      'a zip bomb that says what it unpacks to',
      { name: 'bomb', data: zeros, deflate: true },
      'unpacks to more than',
    ],
    [
      'a zip bomb that lies about its size',
      { name: 'bomb', data: zeros, deflate: true, declaredSize: 10 },
      'corrupt',
    ],
    ['an entry twice', { name: 'Cargo.toml', data: Buffer.from(cargo) }, 'twice'],
    ['a file used as a folder', { name: 'Cargo.toml/x' }, 'a file'],
  ];
  it.each(hostile)('answers 400 for %s', async (_, item, message) => {
    const zip = buildZip([
      { name: 'Cargo.toml', data: Buffer.from(cargo) },
      { data: Buffer.from(lib), ...item },
    ]);
    const answer = await uploadZip(service.url, service.auth, zip);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.code).toBe('CG_ERR_BAD_REQUEST');
    expect(answer.body.message).toContain(message);
  });

  it.each([
    ['bytes that are not a zip', Buffer.from('PK but not really a zip'), 'not a valid zip'],
    ['an empty zip', buildZip([]), 'empty'],
    ['a zip without Cargo.toml', zipFiles({ 'src/lib.rs': lib }), 'no Cargo.toml at the root'],
    ['a Cargo.toml that is not TOML', zipFiles({ 'Cargo.toml': '[package\nname = ' }), 'not valid TOML'],
    [
      'a project without a cdylib',
      zipFiles({ 'Cargo.toml': '[package]\nname = "a"\nversion = "0.1.0"\n' }),
      'no contract',
    ],
    [
      'a workspace member without a manifest',
      zipFiles({ 'Cargo.toml': '[workspace]\nmembers = ["contracts/missing"]\n' }),
      'member contracts/missing has no Cargo.toml',
    ],
  ])('answers 400 for %s', async (_, zip, message) => {
    const answer = await uploadZip(service.url, service.auth, zip);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.message).toContain(message);
  });

  it('answers 413 over the upload limit, and 400 without a file or with another field', async () => {
    const big = buildZip([
      { name: 'Cargo.toml', data: Buffer.from(cargo) },
      { name: 'x', data: Buffer.alloc(MAX_UPLOAD + 1) },
    ]);
    const tooLarge = await uploadZip(service.url, service.auth, big);
    expect(tooLarge.status).toBe(413);
    // Under the limit, a zip larger than a saved contract may be is read whole (and judged on its contents).
    const large = buildZip([
      { name: 'Cargo.toml', data: Buffer.from(cargo.replace('cdylib', 'rlib')) },
      { name: 'blob', data: randomBytes(MAX_UPLOAD - 1024) },
    ]);
    const judged = await uploadZip(service.url, service.auth, large);
    expect(judged.status, judged.text).toBe(400);
    expect(judged.body.message).toContain('no contract');
    const missing = await uploadZip(service.url, service.auth, undefined, { extra: { name: 'x' } });
    expect(missing.status).toBe(400);
    const json = await call('POST', '/stellar/v1/contract/upload', { file: 'x' });
    expect(json.status).toBe(415);
  });
});

describe('builds that fail', () => {
  it('fails a project whose dependencies cannot be fetched, with that reason in its log', async () => {
    const project = zipFiles({
      'Cargo.toml':
        '[package]\nname = "with-deps"\nversion = "0.1.0"\nedition = "2021"\n\n[lib]\ncrate-type = ["cdylib"]\n\n' +
        '[dependencies]\nsoroban-sdk = "22.0.0"\n',
      'src/lib.rs': '#![no_std]\n',
    });
    const upload = await uploadZip(service.url, service.auth, project);
    expect(upload.status).toBe(201);
    expect(upload.body.contracts).toEqual(['with-deps']);
    const status = await waitForBuild(call, upload.body.filename);
    expect(status).toMatchObject({
      status: 'failed',
      contracts: [{ name: 'with-deps', contractSpecsId: null }],
    });
    expect(status.reason).toContain('dependencies cannot be fetched');
    expect(status.log).toContain('soroban-sdk');
    expect(status.log).toContain(`chaingate: ${status.reason}`);
  });

  it('fails a contract without a contractspecv0 section, saving nothing', async () => {
    const upload = await uploadZip(
      service.url,
      service.auth,
      zipFiles(buildScriptProject('plain', 'fn main() {}\n')),
    );
    const status = await waitForBuild(call, upload.body.filename);
    expect(status.status).toBe('failed');
    expect(status.reason).toBe(
      'contract plain: no contractspecv0 section: build the contract with soroban-sdk',
    );
  });
});

describe('the sandbox', () => {
  let listener: Server;
  let connections = 0;
  beforeAll(async () => {
    listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => listener?.close());

  it('keeps a hostile build.rs from the data dir, the network, the system and root', async () => {
    const port = (listener.address() as { port: number }).port;
    const secret = readFileSync(join(service.dataDir, 'master.key'), 'utf8').trim();
    const buildRs = `use std::time::Duration;
fn probe<T, E: std::fmt::Display>(what: &str, result: Result<T, E>) {
    match result {
        Ok(_) => eprintln!("PROBE {}: ALLOWED", what),
        Err(e) => eprintln!("PROBE {}: denied ({})", what, e),
    }
}
fn main() {
    match std::fs::read_to_string("${service.dataDir}/master.key") {
        Ok(key) => eprintln!("PROBE read master key: ALLOWED {}", key),
        Err(e) => eprintln!("PROBE read master key: denied ({})", e),
    }
    probe("list data dir", std::fs::read_dir("${service.dataDir}"));
    probe("host loopback", std::net::TcpStream::connect_timeout(&"127.0.0.1:${port}".parse().unwrap(), Duration::from_secs(2)));
    probe("internet", std::net::TcpStream::connect_timeout(&"1.1.1.1:443".parse().unwrap(), Duration::from_secs(2)));
    probe("write /usr", std::fs::write("/usr/hostile", "x"));
    probe("write /", std::fs::write("/hostile", "x"));
    probe("write /etc", std::fs::write("/etc/hostile", "x"));
    probe("read /root", std::fs::read_dir("/root"));
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    for line in status.lines().filter(|l| l.starts_with("Uid:") || l.starts_with("CapEff:")) {
        eprintln!("PROBE {}", line);
    }
    let processes = std::fs::read_dir("/proc").unwrap().filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().parse::<u32>().is_ok()).count();
    eprintln!("PROBE processes visible: {}", processes);
    panic!("hostile build script done");
}
`;
    const upload = await uploadZip(
      service.url,
      service.auth,
      zipFiles(buildScriptProject('hostile', buildRs)),
    );
    expect(upload.status).toBe(201);
    const status = await waitForBuild(call, upload.body.filename);
    expect(status.status).toBe('failed');
    const probes = status.log.split('\n').filter((line: string) => line.includes('PROBE'));
    expect(probes.length, status.log).toBe(11);
    expect(probes.filter((line: string) => line.includes('ALLOWED'))).toEqual([]);
    expect(status.log).toContain('PROBE read master key: denied (No such file or directory');
    expect(status.log).toContain('PROBE host loopback: denied (Connection refused');
    expect(status.log).toContain('PROBE internet: denied (Network is unreachable');
    expect(status.log).toContain('PROBE write /usr: denied (Read-only file system');
    expect(status.log).toMatch(/PROBE Uid:\s+65534\s+65534/);
    expect(status.log).toMatch(/PROBE CapEff:\s+0{16}/);
    expect(status.log).toMatch(/PROBE processes visible: [1-9]\b/);
    expect(status.log).not.toContain(secret);
    expect(connections).toBe(0);
  });
});
