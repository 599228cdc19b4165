import { setTimeout as sleep } from 'node:timers/promises';
import type { HttpClient } from './http-client.ts';
import type { ServiceUnderTest } from './service-under-test.ts';

export type Api = {
  headers: Record<string, string>;
  /** `T` is what a successful answer holds; the caller checks the status before trusting it. */
  call<T = unknown>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T; text: string }>;
};

export function apiFor(http: HttpClient, service: ServiceUnderTest): Api {
  const headers = {
    authorization: `Bearer ${service.credentials.apiKey}`,
    'x-application-svc': service.credentials.applicationId,
  };
  return {
    headers,
    call: async (method, path, body) => {
      const answer =
        method === 'GET'
          ? await http.get(`${service.url}${path}`, headers)
          : await http.post(`${service.url}${path}`, JSON.stringify(body), headers);
      let parsed: unknown;
      try {
        parsed = answer.text ? JSON.parse(answer.text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: answer.status, body: parsed as never, text: answer.text };
    },
  };
}

export const finalStatuses = ['confirmed', 'error', 'evmError'];

export async function statusOf(api: Api, txHash: string): Promise<{ status: string; nonce: number | null }> {
  const answer = await api.call<{ status: string; nonce: number | null }>(
    'GET',
    `/core/v1/evm/info/transaction/${txHash}/status?network=31337`,
  );
  if (answer.status !== 200) throw new Error(`status of ${txHash}: HTTP ${answer.status} ${answer.text}`);
  return answer.body;
}

/** Setup only (not measured): waits for one transaction to leave inserted/processing. */
export async function waitForFinal(api: Api, txHash: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status } = await statusOf(api, txHash);
    if (finalStatuses.includes(status)) return status;
    if (Date.now() > deadline) throw new Error(`${txHash} still ${status} after ${timeoutMs} ms`);
    await sleep(100);
  }
}

function expectStatus(answer: { status: number; text: string }, status: number, what: string): void {
  if (answer.status !== status) throw new Error(`${what}: HTTP ${answer.status} ${answer.text}`);
}

/** Deploys the built-in ERC20 from the first-start sender (which then holds the whole supply). */
export async function deployToken(api: Api, sender: string): Promise<string> {
  const specs = await api.call<Array<{ name: string; id: number }>>('GET', '/core/v1/evm/info/specs');
  expectStatus(specs, 200, 'list specs');
  const erc20 = specs.body.find((spec) => spec.name === 'ERC20');
  if (!erc20) throw new Error('no ERC20 spec in /core/v1/evm/info/specs');
  const deploy = await api.call<{ contractAddress: string; txHash: string }>(
    'POST',
    '/core/v1/evm/contract/deploy',
    {
      contractSpecsId: erc20.id,
      sender,
      blockchainNetwork: 31337,
      params: ['Bench', 'BNCH', 1_000_000],
    },
  );
  expectStatus(deploy, 201, 'deploy ERC20');
  const status = await waitForFinal(api, deploy.body.txHash);
  if (status !== 'confirmed') throw new Error(`ERC20 deployment ended ${status}`);
  return deploy.body.contractAddress;
}

/** Setup only: one transfer through the service, waited for. */
export async function transferAndWait(
  api: Api,
  token: string,
  sender: string,
  to: string,
  amount: string,
): Promise<void> {
  const answer = await api.call<{ txHash: string }>('POST', '/core/v1/evm/transact/mutable', {
    contractAddress: token,
    sender,
    blockchainNetwork: 31337,
    method: 'transfer',
    params: [to, amount],
  });
  expectStatus(answer, 201, 'setup transfer');
  const status = await waitForFinal(api, answer.body.txHash);
  if (status !== 'confirmed') throw new Error(`setup transfer ended ${status}`);
}
