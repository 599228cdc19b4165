import { performance } from 'node:perf_hooks';
import { encodeFunctionData, erc20Abi, type Hex, keccak256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { checkReceipts, nonceOf, rpc, waitForMinedNonce } from './chain.ts';
import type { CpuUse } from './cpu.ts';
import type { HttpClient } from './http-client.ts';
import { failureReason, runLoad } from './load.ts';
import { recipients, type SendBench, sendTimeoutMs } from './sends.ts';

/** anvil's first dev account (public test key): funded with ether on every anvil. */
export const anvilDevKey = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
export const anvilDevAccount = privateKeyToAccount(anvilDevKey);

/**
 * The baseline: the same ERC-20 transfers, signed beforehand with explicit nonces, pushed with
 * `eth_sendRawTransaction` straight to anvil at the same concurrency, then waited for on chain.
 */
export async function benchRawSends(options: {
  http: HttpClient;
  rpcUrl: string;
  token: string;
  count: number;
  concurrency: number;
  cpuSnapshot?: () => CpuUse;
}): Promise<SendBench> {
  const { http, rpcUrl } = options;
  const from = anvilDevAccount.address;
  const startNonce = await nonceOf(http, rpcUrl, from, 'pending');
  const data = (i: number) =>
    encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [recipients[i % recipients.length] as Hex, 1n],
    });
  const estimate = BigInt(
    await rpc<Hex>(http, rpcUrl, 'eth_estimateGas', [{ from, to: options.token, data: data(0) }]),
  );
  const block = await rpc<{ baseFeePerGas: Hex }>(http, rpcUrl, 'eth_getBlockByNumber', ['latest', false]);
  // Headroom for the base fee rising while 2,000 transfers fill several blocks.
  const maxPriorityFeePerGas = 1_000_000_000n;
  const maxFeePerGas = BigInt(block.baseFeePerGas) * 4n + maxPriorityFeePerGas;

  const signStarted = performance.now();
  const raws: Hex[] = [];
  for (let i = 0; i < options.count; i++) {
    raws.push(
      await anvilDevAccount.signTransaction({
        chainId: 31337,
        type: 'eip1559',
        nonce: startNonce + i,
        to: options.token as Hex,
        data: data(i),
        gas: (estimate * 5n) / 4n,
        maxFeePerGas,
        maxPriorityFeePerGas,
      }),
    );
  }
  const signMs = performance.now() - signStarted;
  const bodies = raws.map((raw) =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] }),
  );
  const hashes = raws.map((raw) => keccak256(raw));

  const started = performance.now();
  const push = await runLoad({
    concurrency: options.concurrency,
    count: options.count,
    ...(options.cpuSnapshot ? { cpuSnapshot: options.cpuSnapshot } : {}),
    task: async (i) => {
      const answer = await http.post(rpcUrl, bodies[i] as string);
      const body = JSON.parse(answer.text) as { result?: string };
      if (answer.status !== 200 || body.result !== hashes[i]) {
        return { ok: false, reason: failureReason(answer.status, answer.text) };
      }
      return { ok: true };
    },
  });
  const minedAt = await waitForMinedNonce(http, rpcUrl, from, startNonce + push.ok, sendTimeoutMs);
  const finalNonce = await nonceOf(http, rpcUrl, from);
  const receipts = await checkReceipts(http, rpcUrl, hashes);
  return {
    push,
    minedMs: minedAt === undefined ? undefined : minedAt - started,
    signMs,
    checks: [
      {
        name: 'raw: all accepted',
        ok: push.ok === options.count,
        detail: `${push.ok}/${options.count}`,
      },
      {
        name: 'raw: final nonce = start + count',
        ok: finalNonce === startNonce + options.count,
        detail: `${finalNonce} = ${startNonce} + ${finalNonce - startNonce}`,
      },
      {
        name: 'raw: every hash has a successful receipt',
        ok: receipts.successful === options.count,
        detail: `${receipts.successful} ok, ${receipts.reverted.length} reverted, ${receipts.missing.length} missing`,
      },
    ],
  };
}
