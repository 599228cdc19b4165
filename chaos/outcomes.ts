import { setTimeout as sleep } from 'node:timers/promises';
import { createPublicClient, erc20Abi, http } from 'viem';
import type { apiClient } from '../test/support/api-client.ts';

/** What the client saw of one request. */
export type Outcome =
  | { kind: 'pending'; keyed: boolean }
  | { kind: 'accepted'; keyed: boolean; txHash: string; attempts: number }
  | { kind: 'refused'; keyed: boolean; status: number; code: string; message: string }
  | { kind: 'unanswered'; keyed: boolean; status: number };

export type Check = { name: string; pass: boolean; detail: string };

type Options = {
  outcomes: Map<number, Outcome>;
  call: ReturnType<typeof apiClient>;
  rpcUrl: string;
  token: `0x${string}`;
  sender: `0x${string}`;
  recipientOf: (index: number) => `0x${string}`;
  settleTimeoutMs: number;
  log: (line: string) => void;
};

const statusPath = (txHash: string) => `/core/v1/evm/info/transaction/${txHash}/status?network=31337`;

/** Waits for every accepted transfer to end, then compares what the client was told with the chain. */
export async function summarise(options: Options): Promise<Check[]> {
  const { outcomes, call, log } = options;
  const chain = createPublicClient({ transport: http(options.rpcUrl, { batch: { batchSize: 100 } }) });
  const accepted = [...outcomes].filter(
    (entry): entry is [number, Extract<Outcome, { kind: 'accepted' }>] => entry[1].kind === 'accepted',
  );
  const finalStatus = new Map<number, { status: string; code?: string }>();
  const deadline = Date.now() + options.settleTimeoutMs;
  let open = accepted;
  while (open.length > 0 && Date.now() < deadline) {
    const stillOpen: typeof open = [];
    for (let start = 0; start < open.length; start += 16) {
      await Promise.all(
        open.slice(start, start + 16).map(async ([index, outcome]) => {
          const answer = await call('GET', statusPath(outcome.txHash)).catch(() => undefined);
          const status = answer?.status === 200 ? (answer.body.status as string) : undefined;
          if (status && !['inserted', 'processing'].includes(status)) {
            finalStatus.set(index, { status, code: answer?.body.errorInfo?.code });
          } else stillOpen.push([index, outcome]);
        }),
      );
    }
    if (stillOpen.length > 0) {
      log(`settling: ${stillOpen.length} of ${accepted.length} accepted still open`);
      await sleep(5_000);
    }
    open = stillOpen;
  }

  const balances = new Map<number, bigint>();
  const indices = [...outcomes.keys()];
  for (let start = 0; start < indices.length; start += 500) {
    const slice = indices.slice(start, start + 500);
    const read = await Promise.all(
      slice.map((index) =>
        chain.readContract({
          address: options.token,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [options.recipientOf(index)],
        }),
      ),
    );
    for (const [at, index] of slice.entries()) balances.set(index, read[at] as bigint);
  }

  const byKind = (kind: Outcome['kind']) => [...outcomes].filter(([, outcome]) => outcome.kind === kind);
  const held = (index: number) => balances.get(index) ?? -1n;
  const list = (entries: Array<[number, unknown]>) =>
    entries
      .slice(0, 8)
      .map(([index]) => `#${index}=${held(index)}`)
      .join(', ');

  const notConfirmed = accepted.filter(([index]) => finalStatus.get(index)?.status !== 'confirmed');
  const endings = new Map<string, number>();
  for (const [index] of accepted) {
    const ending = finalStatus.get(index);
    const key = ending ? `${ending.status}${ending.code ? ` ${ending.code}` : ''}` : 'still open';
    endings.set(key, (endings.get(key) ?? 0) + 1);
  }
  const confirmedWrong = accepted.filter(
    ([index]) => finalStatus.get(index)?.status === 'confirmed' && held(index) !== 1n,
  );
  // Accepted, then told it failed (`error`, `evmError`): nothing may have moved.
  const endedFailed = accepted.filter(([index]) => {
    const status = finalStatus.get(index)?.status;
    return status !== undefined && status !== 'confirmed';
  });
  const failedWithEffect = endedFailed.filter(([index]) => held(index) !== 0n);
  const refused = byKind('refused');
  const refusedWithEffect = refused.filter(([index]) => held(index) !== 0n);
  const unanswered = byKind('unanswered');
  const unansweredBad = unanswered.filter(([index]) => held(index) > 1n);
  const twice = [...outcomes].filter(([index]) => held(index) > 1n);
  const refusalCodes = new Map<string, number>();
  for (const [, outcome] of refused) {
    if (outcome.kind !== 'refused') continue;
    const key = `${outcome.status} ${outcome.code}`;
    refusalCodes.set(key, (refusalCodes.get(key) ?? 0) + 1);
  }

  const latest = await chain.getTransactionCount({ address: options.sender, blockTag: 'latest' });
  const pending = await chain.getTransactionCount({ address: options.sender, blockTag: 'pending' });

  const fresh = await call('POST', '/core/v1/evm/transact/mutable', {
    contractAddress: options.token,
    sender: options.sender,
    blockchainNetwork: 31337,
    method: 'transfer',
    params: [options.recipientOf(9_999_999), 1],
  });
  let freshEnd = `answered ${fresh.status} ${fresh.text.slice(0, 200)}`;
  if (fresh.status === 201) {
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      const answer = await call('GET', statusPath(fresh.body.txHash));
      if (answer.status === 200 && !['inserted', 'processing'].includes(answer.body.status)) {
        freshEnd = `201, then ${answer.body.status}`;
        break;
      }
      await sleep(500);
    }
  }

  const keyedAccepted = accepted.filter(([, outcome]) => outcome.keyed).length;
  return [
    {
      name: 'every accepted transfer ends confirmed',
      pass: notConfirmed.length === 0,
      detail: `${accepted.length} accepted (${keyedAccepted} keyed); endings: ${[...endings].map(([k, n]) => `${k} ×${n}`).join(', ')}`,
    },
    {
      name: 'every confirmed transfer took effect exactly once',
      pass: confirmedWrong.length === 0,
      detail:
        confirmedWrong.length === 0
          ? 'all hold 1'
          : `${confirmedWrong.length} wrong: ${list(confirmedWrong)}`,
    },
    {
      name: 'no accepted transfer that ended failed took effect',
      pass: failedWithEffect.length === 0,
      detail:
        failedWithEffect.length === 0
          ? `${endedFailed.length === 0 ? 'none ended failed' : `the ${endedFailed.length} that ended failed hold 0`}`
          : `${failedWithEffect.length} hold tokens: ${list(failedWithEffect)}`,
    },
    {
      name: 'no refused request took effect',
      pass: refusedWithEffect.length === 0,
      detail: `${refused.length} refused (${[...refusalCodes].map(([k, n]) => `${k} ×${n}`).join(', ') || 'none'}); with effect: ${refusedWithEffect.length} ${list(refusedWithEffect)}`,
    },
    {
      name: 'no unanswered request took effect twice',
      pass: unansweredBad.length === 0,
      detail: `${unanswered.length} unanswered, of which ${unanswered.filter(([index]) => held(index) === 1n).length} took effect once`,
    },
    {
      name: 'no recipient received twice',
      pass: twice.length === 0,
      detail: twice.length === 0 ? `${outcomes.size} recipients read` : list(twice),
    },
    {
      name: "nothing of the sender's is left unmined",
      pass: latest === pending,
      detail: `nonce latest ${latest}, pending ${pending}`,
    },
    {
      name: 'the sender still sends',
      pass: freshEnd === '201, then confirmed',
      detail: freshEnd,
    },
  ];
}
