import { request as httpRequest } from 'node:http';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
export type ApiAnswer = { status: number; body: any; text: string };

/** fetch refuses a GET with a body, which existing clients send: plain node:http does it. */
function getWithBody(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'GET', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A tiny JSON client for the service under test. */
export function apiClient(baseUrl: string, headers: Record<string, string>) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<ApiAnswer> => {
    const allHeaders = {
      ...headers,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...extraHeaders,
    };
    let status: number;
    let text: string;
    if (method === 'GET' && body !== undefined) {
      ({ status, text } = await getWithBody(`${baseUrl}${path}`, allHeaders, JSON.stringify(body)));
    } else {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: allHeaders,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      status = response.status;
      text = await response.text();
    }
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status, body: parsed, text };
  };
}

/** POSTs multipart form data (as curl -F would); the answer's body is parsed when it is JSON. */
export async function postForm(
  url: string,
  headers: Record<string, string>,
  form: FormData,
): Promise<ApiAnswer> {
  const response = await fetch(url, { method: 'POST', headers, body: form });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text };
}

/** Polls the status endpoint until the transaction leaves inserted/processing. */
export async function waitForFinalStatus(
  call: ReturnType<typeof apiClient>,
  txHash: string,
  network = 31337,
  timeoutMs = 30_000,
  // biome-ignore lint/suspicious/noExplicitAny: a status record read by tests
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await call('GET', `/core/v1/evm/info/transaction/${txHash}/status?network=${network}`);
    if (answer.status === 200 && !['inserted', 'processing'].includes(answer.body.status)) return answer.body;
    if (Date.now() > deadline)
      throw new Error(`transaction ${txHash} still ${answer.body?.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** POSTs a deployment of the shared ERC20 spec (name, symbol, supply); answers the API's answer as is. */
export async function requestErc20Deploy(
  call: ReturnType<typeof apiClient>,
  sender: string,
  params: [string, string, number],
): Promise<ApiAnswer> {
  const specs = await call('GET', '/core/v1/evm/info/specs');
  return call('POST', '/core/v1/evm/contract/deploy', {
    contractSpecsId: specs.body.find((s: { name: string }) => s.name === 'ERC20').id,
    sender,
    blockchainNetwork: 31337,
    params,
  });
}

/** Deploys the shared ERC20 and waits until the deployment is confirmed; answers the token's address. */
export async function deployErc20(
  call: ReturnType<typeof apiClient>,
  sender: string,
  params: [string, string, number],
): Promise<`0x${string}`> {
  const deploy = await requestErc20Deploy(call, sender, params);
  if (deploy.status !== 201) throw new Error(`ERC20 deploy answered ${deploy.status}: ${deploy.text}`);
  const final = await waitForFinalStatus(call, deploy.body.txHash);
  if (final.status !== 'confirmed') throw new Error(`ERC20 deploy ended ${final.status}`);
  return deploy.body.contractAddress;
}

/** POSTs an ERC-20 transfer of `amount` (default 1) on the devnet; answers the API's answer as is. */
export function transferToken(
  call: ReturnType<typeof apiClient>,
  transfer: { token: string; sender: string; recipient: string; amount?: number | string },
  extra: Record<string, unknown> = {},
): Promise<ApiAnswer> {
  return call('POST', '/core/v1/evm/transact/mutable', {
    contractAddress: transfer.token,
    sender: transfer.sender,
    blockchainNetwork: 31337,
    method: 'transfer',
    params: [transfer.recipient, transfer.amount ?? 1],
    ...extra,
  });
}
