import { parseStoredJson } from '../../../src/platform/json/lossless-json.ts';
import { type ApiAnswer, type apiClient, postForm } from '../../support/api-client.ts';

export const LOCAL = 100_000_003;

type Call = ReturnType<typeof apiClient>;

/** POSTs a multipart form to `/stellar/v1/contract/save`, as a shell client with curl -F would. */
export async function saveWasm(
  baseUrl: string,
  headers: Record<string, string>,
  form: { file?: Buffer; name?: string; description?: string; extra?: Record<string, string> },
): Promise<ApiAnswer> {
  const body = new FormData();
  if (form.file) body.append('file', new Blob([form.file]), 'contract.wasm');
  if (form.name !== undefined) body.append('name', form.name);
  if (form.description !== undefined) body.append('description', form.description);
  for (const [key, value] of Object.entries(form.extra ?? {})) body.append(key, value);
  return postForm(`${baseUrl}/stellar/v1/contract/save`, headers, body);
}

/** Saves a wasm and answers its contract specs id. */
export async function savedId(baseUrl: string, headers: Record<string, string>, file: Buffer, name: string) {
  const saved = await saveWasm(baseUrl, headers, { file, name });
  if (saved.status !== 201) throw new Error(`save answered ${saved.status}: ${saved.text}`);
  return saved.body.id as number;
}

/** Polls transaction information until the transaction leaves PENDING. */
export async function waitForStellar(
  call: Call,
  txHash: string,
  network = LOCAL,
  timeoutMs = 30_000,
  // biome-ignore lint/suspicious/noExplicitAny: transaction information read by tests
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await call('GET', `/stellar/v1/transaction/${txHash}/info?network=${network}`);
    // Parsed again losslessly: integers beyond 2^53 are number literals with every digit (bigints here).
    if (answer.status === 200 && answer.body.status !== 'PENDING') return parseStoredJson(answer.text);
    if (Date.now() > deadline)
      throw new Error(
        `transaction ${txHash} still ${answer.status} ${answer.text.slice(0, 200)} after ${timeoutMs} ms`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Deploys a saved contract and waits for the creation: answers the contract address. */
export async function deployAndWait(
  call: Call,
  contractSpecsId: number,
  params?: unknown[],
  network = LOCAL,
) {
  const deploy = await call('POST', '/stellar/v1/contract/deployment', {
    contractSpecsId,
    blockchainNetwork: network,
    ...(params ? { params } : {}),
  });
  if (deploy.status !== 201) throw new Error(`deploy answered ${deploy.status}: ${deploy.text}`);
  const info = await waitForStellar(call, deploy.body.txHash, network);
  if (info.status !== 'SUCCESS') throw new Error(`deploy ended ${JSON.stringify(info)}`);
  return deploy.body.address as string;
}

/** Invokes and waits: answers the transaction information. */
export async function invokeAndWait(
  call: Call,
  address: string,
  method: string,
  params: unknown[],
  network = LOCAL,
) {
  const invoke = await call('POST', '/stellar/v1/contract/invoke', {
    blockchainNetwork: network,
    address,
    method,
    params,
    restore: false,
  });
  if (invoke.status !== 200) throw new Error(`invoke ${method} answered ${invoke.status}: ${invoke.text}`);
  return waitForStellar(call, invoke.body.txHash, network);
}
