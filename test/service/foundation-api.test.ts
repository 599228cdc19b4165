import { Networks, rpc } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.close());

async function call(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
) {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, text };
}

const admin = () => ({ authorization: `Bearer ${service.credentials.adminToken}` });

describe('service endpoints', () => {
  it('reports health 200 with every component up', async () => {
    const health = await call('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.components).toEqual({ store: 'up', devnet: 'up', soroban: 'up', ipfs: 'up' });
  });

  it('runs the embedded Soroban network whose URL credentials.json gives', async () => {
    const server = new rpc.Server(service.credentials.sorobanRpcUrl as string, { allowHttp: true });
    expect((await server.getNetwork()).passphrase).toBe(Networks.STANDALONE);
    expect((await server.getHealth()).status).toBe('healthy');
  });

  it('serves the OpenAPI document, Swagger UI and Prometheus metrics', async () => {
    const openapi = await call('GET', '/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.body.openapi).toMatch(/^3\./);
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining([
        '/core/v1/evm/info/chains',
        '/core/v1/evm/info/specs',
        '/admin/v1/applications',
      ]),
    );
    const docs = await fetch(`${service.url}/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
    const metrics = await fetch(`${service.url}/metrics`);
    expect(await metrics.text()).toContain('chaingate_http_request_duration_seconds');
  });
});

describe('authentication', () => {
  it('accepts the API key with x-application-svc or its synonym x-application-vkn', async () => {
    expect((await call('GET', '/core/v1/evm/info/chains', { headers: service.auth })).status).toBe(200);
    const vkn = {
      authorization: service.auth.authorization as string,
      'x-application-vkn': service.credentials.applicationId,
    };
    expect((await call('GET', '/core/v1/evm/info/chains', { headers: vkn })).status).toBe(200);
  });

  it('answers the same 401 for a missing key, a wrong key and a wrong application id', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { 'x-application-svc': service.credentials.applicationId },
      { ...service.auth, authorization: 'Bearer cg_key_wrong' },
      { ...service.auth, 'x-application-svc': '00000000-0000-4000-8000-000000000000' },
      { ...service.auth, 'x-application-svc': 'not-a-uuid' },
    ];
    const answers = await Promise.all(
      attempts.map((headers) => call('GET', '/core/v1/evm/info/chains', { headers })),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        statusCode: 401,
        code: 'CG_ERR_UNAUTHORIZED',
        error: 'Unauthorized',
        message: 'missing or invalid credentials',
      });
    }
  });

  it('treats a doubled slash as one', async () => {
    expect((await call('GET', '/core/v1//evm/info/chains', { headers: service.auth })).status).toBe(200);
  });
});

describe('chains', () => {
  it('lists the devnet as a test network with every field of the Chain table', async () => {
    const { body } = await call('GET', '/core/v1/evm/info/chains', { headers: service.auth });
    expect(body.mainnetNetworks).toEqual([]);
    expect(body.testnetNetworks).toEqual([
      {
        id: 31337,
        name: expect.any(String),
        symbol: 'ETH',
        isMainnet: false,
        explorer: '',
        testnetFaucet: null,
        typeId: 1,
        typeName: 'EVM',
        activeForTransactions: true,
      },
    ]);
  });
});

describe('admin API', () => {
  it('refuses calls without the admin token', async () => {
    expect((await call('GET', '/admin/v1/applications')).status).toBe(401);
    expect((await call('GET', '/admin/v1/applications', { headers: service.auth })).status).toBe(401);
  });

  it('creates an application whose key works, funds its sender, rotates its key and adds senders', async () => {
    const created = await call('POST', '/admin/v1/applications', {
      headers: admin(),
      body: { name: 'shop', plan: 'free' },
    });
    expect(created.status).toBe(201);
    const { applicationId, apiKey, sender } = created.body;
    const headers = { authorization: `Bearer ${apiKey}`, 'x-application-svc': applicationId };
    expect((await call('GET', '/core/v1/evm/info/specs', { headers })).status).toBe(200);
    const devnet = service.platform.evm.get(31337);
    expect(await devnet?.client.getBalance({ address: sender })).toBeGreaterThan(0n);

    const rotated = await call('POST', `/admin/v1/applications/${applicationId}/rotate-key`, {
      headers: admin(),
    });
    expect(rotated.status).toBe(200);
    expect((await call('GET', '/core/v1/evm/info/specs', { headers })).status).toBe(401);
    const newHeaders = { authorization: `Bearer ${rotated.body.apiKey}`, 'x-application-svc': applicationId };
    expect((await call('GET', '/core/v1/evm/info/specs', { headers: newHeaders })).status).toBe(200);

    const added = await call('POST', `/admin/v1/applications/${applicationId}/senders`, { headers: admin() });
    expect(added.status).toBe(201);
    const list = await call('GET', '/admin/v1/applications', { headers: admin() });
    const entry = list.body.find((a: { applicationId: string }) => a.applicationId === applicationId);
    expect(entry.senders).toEqual([sender, added.body.sender]);
    expect(entry.apiKeyHint).toBe(`…${rotated.body.apiKey.slice(-4)}`);
  });

  it('answers 400 naming the field for a bad body and 404 for an unknown application', async () => {
    const bad = await call('POST', '/admin/v1/applications', {
      headers: admin(),
      body: { name: 'x', plan: 'gold' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('plan');
    const missing = await call('POST', '/admin/v1/applications', {
      headers: admin(),
      body: { plan: 'free' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain("'name'");
    const unknown = await call(
      'POST',
      '/admin/v1/applications/00000000-0000-4000-8000-000000000000/senders',
      {
        headers: admin(),
      },
    );
    expect(unknown.status).toBe(404);
  });

  it('shows a free application test networks only', async () => {
    const created = await call('POST', '/admin/v1/applications', {
      headers: admin(),
      body: { name: 'f', plan: 'free' },
    });
    const headers = {
      authorization: `Bearer ${created.body.apiKey}`,
      'x-application-svc': created.body.applicationId,
    };
    const chains = await call('GET', '/core/v1/evm/info/chains', { headers });
    expect(chains.body.mainnetNetworks).toEqual([]);
    expect(chains.body.testnetNetworks.map((c: { id: number }) => c.id)).toEqual([31337]);
  });
});

describe('contract specs', () => {
  const abi = [
    {
      type: 'function',
      name: 'get',
      inputs: [],
      outputs: [{ name: '', type: 'uint256' }],
      stateMutability: 'view',
    },
  ];

  it('lists the four shared standard contracts as shared and audited', async () => {
    const { status, body } = await call('GET', '/core/v1/evm/info/specs', { headers: service.auth });
    expect(status).toBe(200);
    expect(body.map((s: { name: string }) => s.name)).toEqual(['ERC20', 'ERC721', 'ERC1155', 'POAP']);
    for (const spec of body) expect(spec).toMatchObject({ owned: false, shared: true, audited: true });
  });

  it('lets a premium application upload a spec that only it sees', async () => {
    const upload = await call('POST', '/core/v1/evm/info/specs', {
      headers: service.auth,
      body: { name: 'Mine', abi },
    });
    expect(upload.status).toBe(201);
    expect(upload.body).toEqual({ id: expect.any(Number) });
    const mine = await call('GET', '/core/v1/evm/info/specs', { headers: service.auth });
    expect(mine.body.find((s: { id: number }) => s.id === upload.body.id)).toMatchObject({
      name: 'Mine',
      owned: true,
      shared: false,
      audited: false,
    });
    const other = await call('POST', '/admin/v1/applications', {
      headers: admin(),
      body: { name: 'o', plan: 'premium' },
    });
    const otherHeaders = {
      authorization: `Bearer ${other.body.apiKey}`,
      'x-application-svc': other.body.applicationId,
    };
    const theirs = await call('GET', '/core/v1/evm/info/specs', { headers: otherHeaders });
    expect(theirs.body.map((s: { id: number }) => s.id)).not.toContain(upload.body.id);
  });

  it('refuses an upload from a free plan with 403', async () => {
    const free = await call('POST', '/admin/v1/applications', {
      headers: admin(),
      body: { name: 'f2', plan: 'free' },
    });
    const headers = {
      authorization: `Bearer ${free.body.apiKey}`,
      'x-application-svc': free.body.applicationId,
    };
    const upload = await call('POST', '/core/v1/evm/info/specs', { headers, body: { name: 'x', abi } });
    expect(upload.status).toBe(403);
  });

  it('answers 400 for an invalid ABI, naming the bad item', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [
        [{ type: 'function', name: 'f', inputs: [{ type: 'uint257' }] }],
        /abi\[0\]\.inputs\[0\]\.type 'uint257'/,
      ],
      [[{ type: 'banana' }], /abi\[0\]\.type must be one of/],
      ['not json', /not valid JSON/],
      [[], /non-empty/],
      [[{ type: 'event', inputs: [] }], /abi\[0\]\.name is required/],
    ];
    for (const [badAbi, message] of cases) {
      const answer = await call('POST', '/core/v1/evm/info/specs', {
        headers: service.auth,
        body: { name: 'bad', abi: badAbi },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(message);
    }
    const noName = await call('POST', '/core/v1/evm/info/specs', { headers: service.auth, body: { abi } });
    expect(noName.status).toBe(400);
    expect(noName.body.message).toContain("'name'");
  });
});
