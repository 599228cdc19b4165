import axios from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, waitForFinalStatus } from '../support/api-client.ts';
import { pythonJsonDumps, rawRequest, withBody } from '../support/raw-http.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * Existing clients of the documented service, each as it really sends: axios with a GET body, Python
 * `requests` (json= on GET), curl with its default form content type, Go structs with every field
 * (nulls, zeros, big literals). Each runs the core flow (deploy, send, view, status by hash and by
 * reference, transaction information) and every number is checked on chain with raw RPC.
 */
let service: TestService;
let call: ReturnType<typeof apiClient>;
let erc20Id: number;
let payableSpecId: number;

/** A contract whose code is a single STOP: any call succeeds and keeps the value sent. */
const payableAbi = [
  { type: 'function', name: 'deposit', inputs: [], outputs: [], stateMutability: 'payable' },
];
const payableBytecode = '0x6001600c60003960016000f300';

async function rpc(method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(service.credentials.devnetRpcUrl as string, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await response.json()) as { result: unknown }).result;
}

/** balanceOf(holder) of an ERC-20, by raw eth_call. */
async function tokenBalance(token: string, holder: string): Promise<bigint> {
  const data = `0x70a08231${holder.slice(2).toLowerCase().padStart(64, '0')}`;
  return BigInt((await rpc('eth_call', [{ to: token, data }, 'latest'])) as string);
}

async function chainValue(txHash: string): Promise<bigint> {
  const tx = (await rpc('eth_getTransactionByHash', [txHash])) as { value: string };
  return BigInt(tx.value);
}

beforeAll(async () => {
  service = await startTestService({ CHAINGATE_SOROBAN: '0' });
  call = apiClient(service.url, service.auth);
  const specs = (await call('GET', '/core/v1/evm/info/specs')).body;
  erc20Id = specs.find((s: { name: string }) => s.name === 'ERC20').id;
  payableSpecId = (
    await call('POST', '/core/v1/evm/info/specs', {
      name: 'Payable',
      abi: payableAbi,
      bytecode: payableBytecode,
    })
  ).body.id;
});
afterAll(async () => service?.close());

const headerLines = () =>
  `Host: 127.0.0.1\r\nAuthorization: ${service.auth.authorization}\r\nx-application-svc: ${service.auth['x-application-svc']}\r\n`;

describe('TypeScript (axios), reads as GET with a JSON body', () => {
  it('deploys, sends, views, follows status and reads the transaction', { timeout: 60_000 }, async () => {
    const client = axios.create({ baseURL: service.url, headers: service.auth, validateStatus: () => true });
    const sender = service.credentials.sender;
    const deploy = await client.post('/core/v1/evm/contract/deploy', {
      contractSpecsId: erc20Id,
      sender,
      blockchainNetwork: 31337,
      params: ['Axios', 'AX', 1000],
      myReference: 'axiosDeploy',
    });
    expect(deploy.status).toBe(201);
    const token = deploy.data.contractAddress as string;
    await waitForFinalStatus(call, deploy.data.txHash);
    const holder = '0x000000000000000000000000000000000000a110';
    const send = await client.post('/core/v1/evm/transact/mutable', {
      contractAddress: token,
      sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [holder, '123456789012345678901'],
      myReference: 'axiosSend',
    });
    expect(send.status).toBe(201);
    const status = await client.get(`/core/v1/evm/info/transaction/${send.data.txHash}/status`, {
      params: { network: 31337 },
    });
    expect(status.status).toBe(200);
    await waitForFinalStatus(call, send.data.txHash);
    const view = await client.get('/core/v1/evm/transact/view', {
      data: { contractAddress: token, blockchainNetwork: 31337, method: 'balanceOf', params: [holder] },
      transformResponse: (text: string) => text,
    });
    expect(view.status).toBe(200);
    expect(view.data).toBe('[123456789012345678901]');
    expect(await tokenBalance(token, holder)).toBe(123456789012345678901n);
    const byReference = await client.get('/core/v1/evm/info/transaction/reference/axiosSend');
    expect(byReference.data.info[0]).toMatchObject({ txHash: send.data.txHash, status: 'confirmed' });
    const info = await client.get(`/core/v1/evm/info/transaction/${send.data.txHash}?network=31337`, {
      transformResponse: (text: string) => text,
    });
    expect(info.data).toContain('"value":123456789012345678901');
  });
});

describe('Python (requests): json= on GET and POST, exactly as it writes them', () => {
  const request = (method: string, path: string, payload: unknown) =>
    rawRequest(
      service.url,
      withBody(
        `${method} ${path} HTTP/1.1\r\n${headerLines()}User-Agent: python-requests/2.32.3\r\nAccept-Encoding: gzip, deflate\r\nAccept: */*\r\nConnection: keep-alive\r\nContent-Type: application/json\r\n`,
        pythonJsonDumps(payload),
      ),
    );

  it('keeps a Python int above 2^53 exact, in value and in params', { timeout: 60_000 }, async () => {
    const sender = service.credentials.sender;
    const deploy = await request('POST', '/core/v1/evm/contract/deploy', {
      contractSpecsId: payableSpecId,
      sender,
      blockchainNetwork: 31337,
      params: [],
      myReference: 'pyDeploy',
    });
    expect(deploy.status).toBe(201);
    const vault = JSON.parse(deploy.text).contractAddress;
    await waitForFinalStatus(call, JSON.parse(deploy.text).txHash);
    const send = await request('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: vault,
      sender,
      blockchainNetwork: 31337,
      method: 'deposit',
      params: [],
      value: 1234567890123456789n,
      myReference: 'pySend',
    });
    expect(send.status).toBe(201);
    const { txHash } = JSON.parse(send.text);
    expect((await waitForFinalStatus(call, txHash)).status).toBe('confirmed');
    expect(await chainValue(txHash)).toBe(1234567890123456789n);
    expect(BigInt((await rpc('eth_getBalance', [vault, 'latest'])) as string)).toBe(1234567890123456789n);
    const info = await request('GET', `/core/v1/evm/info/transaction/${txHash}?network=31337`, {});
    expect(info.text).toContain('"value":1234567890123456789,');
    const byReference = await request('GET', '/core/v1/evm/info/transaction/reference/pySend', {});
    expect(JSON.parse(byReference.text).info[0].status).toBe('confirmed');

    const token = (
      await call('POST', '/core/v1/evm/contract/deploy', {
        contractSpecsId: erc20Id,
        sender,
        blockchainNetwork: 31337,
        params: ['Py', 'PY', 1000],
      })
    ).body.contractAddress;
    const holder = '0x000000000000000000000000000000000000b0b0';
    await new Promise((resolve) => setTimeout(resolve, 500));
    const transfer = await request('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: token,
      sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [holder, 1000000000000000000n],
    });
    expect(transfer.status).toBe(201);
    await waitForFinalStatus(call, JSON.parse(transfer.text).txHash);
    const view = await request('GET', '/core/v1/evm/transact/view', {
      contractAddress: token,
      blockchainNetwork: 31337,
      method: 'balanceOf',
      params: [holder],
    });
    expect(view.status).toBe(200);
    expect(view.text).toBe('[1000000000000000000]');
    expect(await tokenBalance(token, holder)).toBe(1000000000000000000n);
  });
});

describe('shell (curl -d): JSON sent as application/x-www-form-urlencoded, reads with a query string', () => {
  const curl = (method: string, path: string, body?: string) =>
    rawRequest(
      service.url,
      body === undefined
        ? `${method} ${path} HTTP/1.1\r\n${headerLines()}User-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n`
        : withBody(
            `${method} ${path} HTTP/1.1\r\n${headerLines()}User-Agent: curl/7.88.1\r\nAccept: */*\r\nContent-Type: application/x-www-form-urlencoded\r\n`,
            body,
          ),
    );

  it('takes the body as JSON and big bare numbers exactly', { timeout: 60_000 }, async () => {
    const sender = service.credentials.sender;
    const deploy = await curl(
      'POST',
      '/core/v1/evm/contract/deploy',
      `{"contractSpecsId":${erc20Id},"sender":"${sender}","blockchainNetwork":31337,"params":["Curl","CRL",1000],"myReference":"curlDeploy"}`,
    );
    expect(deploy.status).toBe(201);
    const { contractAddress: token, txHash: deployHash } = JSON.parse(deploy.text);
    await waitForFinalStatus(call, deployHash);
    const holder = '0x000000000000000000000000000000000000c041';
    const send = await curl(
      'POST',
      '/core/v1/evm/transact/mutable',
      `{"contractAddress":"${token}","sender":"${sender}","blockchainNetwork":31337,"method":"transfer","params":["${holder}",99999999999999999999],"myReference":"curlSend"}`,
    );
    expect(send.status).toBe(201);
    const { txHash } = JSON.parse(send.text);
    await waitForFinalStatus(call, txHash);
    const view = await curl(
      'GET',
      `/core/v1/evm/transact/view?contractAddress=${token}&network=31337&method=balanceOf&params=${encodeURIComponent(`["${holder}"]`)}`,
    );
    expect(view.status).toBe(200);
    expect(view.text).toBe('[99999999999999999999]');
    expect(await tokenBalance(token, holder)).toBe(99999999999999999999n);
    const status = await curl('GET', `/core/v1/evm/info/transaction/${txHash}/status?network=31337`);
    expect(JSON.parse(status.text).status).toBe('confirmed');
    const byReference = await curl('GET', '/core/v1/evm/info/transaction/reference/curlSend');
    expect(JSON.parse(byReference.text).info).toHaveLength(1);
    const info = await curl('GET', `/core/v1/evm/info/transaction/${txHash}?network=31337`);
    expect(info.status).toBe(200);
    expect(info.text).toContain('"value":99999999999999999999');
    // An empty POST body where only a query is taken is {} (validation names what is missing).
    const empty = await rawRequest(
      service.url,
      withBody(
        `POST /core/v1/evm/transact/view HTTP/1.1\r\n${headerLines()}Content-Type: application/json\r\n`,
        '',
      ),
    );
    expect(empty.status).toBe(400);
    expect(JSON.parse(empty.text).message).toContain('missing required field');
  });
});

describe('Go (net/http with typed structs): every field sent, nulls and zeros, big literals', () => {
  const post = (path: string, body: string) =>
    rawRequest(
      service.url,
      withBody(
        `POST ${path} HTTP/1.1\r\n${headerLines()}User-Agent: Go-http-client/1.1\r\nContent-Type: application/json\r\nAccept-Encoding: gzip\r\n`,
        body,
      ),
    );

  it('reads null as absent, 0 gas fields as absent, nonce 0 as a nonce, params null as []', {
    timeout: 60_000,
  }, async () => {
    const sender = service.credentials.sender;
    const deploy = await post(
      '/core/v1/evm/contract/deploy',
      `{"contractSpecsId":${payableSpecId},"myReference":"","sender":"${sender}","blockchainNetwork":31337,"gasLimit":0,"useGasEstimation":null,"gasPrice":0,"priorityFee":null,"nonce":null,"alias":"","params":null}`,
    );
    expect(deploy.status, deploy.text).toBe(201);
    const { contractAddress: vault, txHash: deployHash } = JSON.parse(deploy.text);
    await waitForFinalStatus(call, deployHash);
    const deployTx = (await rpc('eth_getTransactionByHash', [deployHash])) as {
      gas: string;
      maxPriorityFeePerGas: string;
    };
    expect(BigInt(deployTx.gas)).toBeLessThan(3_000_000n); // estimated, not the unestimated default
    expect(BigInt(deployTx.maxPriorityFeePerGas)).toBeGreaterThan(0n); // a real tip, not 0

    const send = await post(
      '/core/v1/evm/transact/mutable',
      `{"contractAddress":"${vault}","myReference":"goSend","contractSpecsId":0,"sender":"${sender}","blockchainNetwork":31337,"value":12345678901234567891,"gasLimit":0,"useGasEstimation":null,"gasPrice":0,"priorityFee":null,"nonce":null,"method":"deposit","params":null}`,
    );
    expect(send.status, send.text).toBe(201);
    const { txHash, nonce } = JSON.parse(send.text);
    expect((await waitForFinalStatus(call, txHash)).status).toBe('confirmed');
    expect(await chainValue(txHash)).toBe(12345678901234567891n);

    // A Go struct decodes transaction.value as a number: the answer writes it as one, every digit.
    const info = await rawRequest(
      service.url,
      `GET /core/v1/evm/info/transaction/${txHash}?network=31337 HTTP/1.1\r\n${headerLines()}User-Agent: Go-http-client/1.1\r\n\r\n`,
    );
    expect(info.text).toMatch(/"value":12345678901234567891,/);
    expect(info.text).toMatch(new RegExp(`"nonce":${nonce},`));

    const view = await post(
      '/core/v1/evm/transact/view',
      `{"contractAddress":"${vault}","contractSpecsId":${payableSpecId},"blockchainNetwork":31337,"method":"deposit","params":null}`,
    );
    expect(view.status).toBe(200);
    expect(view.text).toBe('[]');
    const byReference = await rawRequest(
      service.url,
      `GET /core/v1/evm/info/transaction/reference/goSend HTTP/1.1\r\n${headerLines()}\r\n`,
    );
    expect(JSON.parse(byReference.text).info[0]).toMatchObject({ txHash, status: 'confirmed' });

    // nonce 0 stays a nonce: the sender is far past it, so it is refused, not ignored.
    const explicit = await post(
      '/core/v1/evm/chain/transfer',
      `{"sender":"${sender}","recipient":"${vault}","blockchainNetwork":31337,"value":1,"gasLimit":0,"gasPrice":0,"priorityFee":0,"nonce":0,"myReference":""}`,
    );
    expect(explicit.status).toBe(400);
    expect(JSON.parse(explicit.text).code).toBe('CG_ERR_BAD_NONCE');
  });
});
