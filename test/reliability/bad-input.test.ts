import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, deployErc20, waitForFinalStatus } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';

let service: TestService;
let call: ReturnType<typeof apiClient>;
let admin: ReturnType<typeof apiClient>;
let token: `0x${string}`;

beforeAll(async () => {
  service = await startTestService({ CHAINGATE_SOROBAN: '0' });
  call = apiClient(service.url, service.auth);
  admin = apiClient(service.url, { authorization: `Bearer ${service.credentials.adminToken}` });
  token = await deployErc20(call, service.credentials.sender, ['Input', 'INP', 1000]);
});
afterAll(async () => service?.close());

/** A raw request and its raw answer, so the body bytes (literals, NUL escapes) are exactly as written. */
async function raw(method: string, path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { ...service.auth, 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text };
}

describe('stored text with a NUL character is a 400 naming the field (was a 500 from PostgreSQL)', () => {
  it('application name', async () => {
    const answer = await admin('POST', '/admin/v1/applications', { name: 'a\u0000b', plan: 'free' });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('body.name');
  });
  it('spec name and description', async () => {
    for (const field of ['name', 'description']) {
      const answer = await call('POST', '/core/v1/evm/info/specs', {
        name: 'ok',
        abi: [{ type: 'function', name: 'f', inputs: [], outputs: [], stateMutability: 'view' }],
        [field]: 'x\u0000y',
      });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toContain(`body.${field}`);
    }
  });
  it('deploy alias, and a lone surrogate anywhere', async () => {
    const specs = (await call('GET', '/core/v1/evm/info/specs')).body;
    const erc20 = specs.find((s: { name: string }) => s.name === 'ERC20').id;
    const base = {
      contractSpecsId: erc20,
      sender: service.credentials.sender,
      blockchainNetwork: 31337,
      params: ['a', 'b', 1],
    };
    const nul = await call('POST', '/core/v1/evm/contract/deploy', { ...base, alias: 'my\u0000token' });
    expect(nul.status).toBe(400);
    expect(nul.body.message).toContain('body.alias');
    const surrogate = await raw(
      'POST',
      '/core/v1/evm/contract/deploy',
      JSON.stringify({ ...base, alias: 'x' }).replace('"x"', '"\\ud800"'),
    );
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.message).toContain('surrogate');
  });
});

describe('non-finite and oversized numbers are a 400 naming the field (they reached SQL)', () => {
  const view = (query: string) =>
    call(
      'GET',
      `/core/v1/evm/transact/view?contractAddress=${token}&blockchainNetwork=31337&method=totalSupply&params=[]&${query}`,
    );

  it('Infinity, NaN and 1e309 in a query string', async () => {
    for (const value of ['Infinity', 'NaN', '1e309', '-Infinity']) {
      const answer = await view(`contractSpecsId=${value}`);
      expect(answer.status, value).toBe(400);
      expect(answer.body.message).toContain('contractSpecsId');
    }
    for (const path of [
      `/core/v1/evm/contract/deploy/estimategas?contractSpecsId=Infinity&sender=${service.credentials.sender}&blockchainNetwork=31337&params=[]`,
      `/core/v1/evm/transact/mutable/estimategas?contractAddress=${token}&contractSpecsId=NaN&sender=${service.credentials.sender}&blockchainNetwork=31337&method=totalSupply&params=[]`,
      `/core/v1/evm/info/transaction/0x${'ab'.repeat(32)}?network=31337&contractSpecsId=1e309`,
      '/core/v1/evm/network/gasprice?network=Infinity',
    ]) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(400);
      expect(answer.body.code).toBe('CG_ERR_VALIDATION');
    }
  });

  it('"Infinity" as a body string for an integer, a gasLimit of 2^256, 1e309 and 1e18 as integer literals', async () => {
    const transfer = {
      contractAddress: token,
      sender: service.credentials.sender,
      blockchainNetwork: 31337,
      method: 'transfer',
    };
    const infinity = await call('POST', '/core/v1/evm/transact/mutable', {
      ...transfer,
      params: [token, 1],
      contractSpecsId: 'Infinity',
    });
    expect(infinity.status).toBe(400);
    expect(infinity.body.message).toContain('contractSpecsId');
    const huge = await raw(
      'POST',
      '/core/v1/evm/transact/mutable',
      JSON.stringify({ ...transfer, params: [token, 1] }).replace(
        '}',
        `,"gasLimit":${(2n ** 256n).toString()}}`,
      ),
    );
    expect(huge.status).toBe(400);
    expect(huge.body.message).toContain('gasLimit');
    const overflow = await raw(
      'POST',
      '/core/v1/evm/transact/mutable',
      JSON.stringify({ ...transfer, params: [token, 1] }).replace('}', ',"nonce":1e309}'),
    );
    expect(overflow.status).toBe(400);
    expect(overflow.body.message).toContain('nonce');
    const exponent = await raw(
      'POST',
      '/core/v1/evm/transact/mutable',
      JSON.stringify({ ...transfer, params: [token, 1] }).replace('}', ',"value":1e18}'),
    );
    expect(exponent.status).toBe(400);
    expect(exponent.body.message).toContain('value');
    const inParams = await raw(
      'POST',
      '/core/v1/evm/transact/mutable',
      JSON.stringify({ ...transfer, params: [token, 1] }).replace(',1]', ',1e18]'),
    );
    expect(inParams.status).toBe(400);
    expect(inParams.body.message).toContain('params[1]');
    const fraction = await raw(
      'POST',
      '/core/v1/evm/transact/mutable',
      JSON.stringify({ ...transfer, params: [token, 1] }).replace(',1]', ',2.5]'),
    );
    expect(fraction.status).toBe(400);
  });
});

it('validates JSON bodies without coercion: contractSpecsId true is a 400, not spec 1', async () => {
  const answer = await call('POST', '/core/v1/evm/contract/deploy', {
    contractSpecsId: true,
    sender: service.credentials.sender,
    blockchainNetwork: 31337,
    params: ['a', 'b', 1],
  });
  expect(answer.status).toBe(400);
  expect(answer.body.message).toContain('contractSpecsId');
  const viewed = await call('POST', '/core/v1/evm/transact/view', {
    contractAddress: token,
    blockchainNetwork: '31337',
    method: 'totalSupply',
    params: [],
  });
  expect(viewed.status).toBe(400);
  expect(viewed.body.message).toContain('blockchainNetwork');
});

it('quotes at most a short piece of a 1 MB input in the message', async () => {
  const answer = await call('POST', '/core/v1/evm/transact/view', {
    contractAddress: token,
    blockchainNetwork: 31337,
    method: 'm'.repeat(1000),
    params: [],
  });
  expect(answer.status).toBe(400);
  const huge = await call('POST', '/core/v1/evm/transact/view', {
    contractAddress: token,
    blockchainNetwork: 31337,
    method: 'm'.repeat(1024 * 1024),
    params: [],
  });
  expect([400, 413]).toContain(huge.status);
  expect(huge.text.length).toBeLessThan(1000);
  expect(answer.text.length).toBeLessThan(1000);
});

describe('an oversized GET body', () => {
  /** Sends `requests` on one keep-alive socket and collects what comes back until the socket closes. */
  function onOneSocket(requests: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const { port } = new URL(service.url);
      const socket = connect(Number(port), '127.0.0.1');
      let received = '';
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`socket left hanging; received so far: ${received.slice(0, 300)}`));
      }, 20_000);
      socket.on('data', (chunk) => {
        received += chunk.toString();
      });
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(received);
      });
      socket.on('error', () => {});
      for (const request of requests) socket.write(request);
    });
  }

  it('answers 413 with a code and closes the connection instead of leaving it hanging', async () => {
    const big = JSON.stringify({
      contractAddress: token,
      blockchainNetwork: 31337,
      method: 'totalSupply',
      params: [],
      pad: 'x'.repeat(2 * 1024 * 1024),
    });
    const headers = `Authorization: ${service.auth.authorization}\r\nx-application-svc: ${service.auth['x-application-svc']}\r\nContent-Type: application/json\r\n`;
    const received = await onOneSocket([
      `GET /core/v1/evm/transact/view HTTP/1.1\r\nHost: x\r\n${headers}Content-Length: ${big.length}\r\n\r\n${big}`,
      `GET /health HTTP/1.1\r\nHost: x\r\n\r\n`,
    ]);
    expect(received).toMatch(/^HTTP\/1\.1 413/);
    expect(received).toContain('"code":"CG_ERR_BODY_TOO_LARGE"');
    expect(received.toLowerCase()).toContain('connection: close');
  });

  it('answers 431 with a code for headers too large', async () => {
    const received = await onOneSocket([
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
    ]);
    expect(received).toMatch(/^HTTP\/1\.1 431/);
    expect(received).toContain('"code":"CG_ERR_HEADERS_TOO_LARGE"');
  });
});

describe('a send to an address with no code', () => {
  const someone = '0x000000000000000000000000000000000000dEaD';
  it('is refused before signing, with the shared spec given', async () => {
    const specs = (await call('GET', '/core/v1/evm/info/specs')).body;
    const erc20 = specs.find((s: { name: string }) => s.name === 'ERC20').id;
    const answer = await call('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: someone,
      contractSpecsId: erc20,
      sender: service.credentials.sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [someone, 1],
      myReference: 'nocode',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('CG_ERR_NOT_A_CONTRACT');
    expect((await call('GET', '/core/v1/evm/info/transaction/reference/nocode')).body.info).toEqual([]);
  });

  it('is accepted when this service is deploying a contract there (the deploy holds an earlier nonce)', async () => {
    const specs = (await call('GET', '/core/v1/evm/info/specs')).body;
    const erc20 = specs.find((s: { name: string }) => s.name === 'ERC20').id;
    const devnet = async (method: string, params: unknown[]) =>
      fetch(service.credentials.devnetRpcUrl as string, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
    await devnet('evm_setIntervalMining', [0]);
    let send: Awaited<ReturnType<typeof call>>;
    let deploy: Awaited<ReturnType<typeof call>>;
    try {
      deploy = await call('POST', '/core/v1/evm/contract/deploy', {
        contractSpecsId: erc20,
        sender: service.credentials.sender,
        blockchainNetwork: 31337,
        params: ['Pending', 'PND', 5],
      });
      expect(deploy.status).toBe(201);
      send = await call('POST', '/core/v1/evm/transact/mutable', {
        contractAddress: deploy.body.contractAddress,
        sender: service.credentials.sender,
        blockchainNetwork: 31337,
        method: 'transfer',
        params: [someone, 3],
      });
      expect(send.status).toBe(201);
    } finally {
      await devnet('evm_setIntervalMining', [1]);
    }
    expect((await waitForFinalStatus(call, send.body.txHash)).status).toBe('confirmed');
    const balance = await call('POST', '/core/v1/evm/transact/view', {
      contractAddress: deploy.body.contractAddress,
      blockchainNetwork: 31337,
      method: 'balanceOf',
      params: [someone],
    });
    expect(balance.body).toEqual([3]);
  });
});
