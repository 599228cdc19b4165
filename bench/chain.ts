import { setTimeout as sleep } from 'node:timers/promises';
import type { Hex } from 'viem';
import type { HttpClient } from './http-client.ts';

export type RpcAnswer = { result?: unknown; error?: { code: number; message: string } };

/** One JSON-RPC call to anvil; throws on a transport or RPC error. */
export async function rpc<T>(http: HttpClient, url: string, method: string, params: unknown[]): Promise<T> {
  const answer = await http.post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  const body = JSON.parse(answer.text) as RpcAnswer;
  if (answer.status !== 200 || body.error) {
    throw new Error(`${method}: HTTP ${answer.status} ${body.error?.message ?? answer.text.slice(0, 200)}`);
  }
  return body.result as T;
}

export async function nonceOf(
  http: HttpClient,
  url: string,
  address: string,
  tag = 'latest',
): Promise<number> {
  return Number(await rpc<Hex>(http, url, 'eth_getTransactionCount', [address, tag]));
}

/**
 * Waits until the account's mined nonce reaches `target`; resolves with the time it happened (ms,
 * performance clock) or undefined on timeout. Polls every 50 ms: far below the 200 ms block time.
 */
export async function waitForMinedNonce(
  http: HttpClient,
  url: string,
  address: string,
  target: number,
  timeoutMs: number,
): Promise<number | undefined> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if ((await nonceOf(http, url, address)) >= target) return performance.now();
    await sleep(50);
  }
  return undefined;
}

export type ReceiptCheck = { successful: number; reverted: string[]; missing: string[] };

/** Fetches every hash's receipt (a few at a time) and sorts them into successful, reverted and missing. */
export async function checkReceipts(http: HttpClient, url: string, hashes: string[]): Promise<ReceiptCheck> {
  const check: ReceiptCheck = { successful: 0, reverted: [], missing: [] };
  let next = 0;
  const worker = async () => {
    while (next < hashes.length) {
      const hash = hashes[next++] as string;
      const receipt = await rpc<{ status: Hex } | null>(http, url, 'eth_getTransactionReceipt', [hash]);
      if (!receipt) check.missing.push(hash);
      else if (receipt.status === '0x1') check.successful++;
      else check.reverted.push(hash);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return check;
}

/** True when the numbers are exactly start, start+1, … with no gap and no repeat. */
export function isContiguousFrom(nonces: number[], start: number): boolean {
  const sorted = [...nonces].sort((a, b) => a - b);
  return sorted.every((nonce, index) => nonce === start + index);
}
