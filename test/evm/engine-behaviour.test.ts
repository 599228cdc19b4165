import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, deployErc20, transferToken, waitForFinalStatus } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';

let service: TestService;
let call: ReturnType<typeof apiClient>;
let chain: ReturnType<typeof createPublicClient>;
let token: string;
const recipient = '0x000000000000000000000000000000000000beef';

async function pauseMining() {
  await chain.request({ method: 'evm_setIntervalMining' as never, params: [0] as never });
  await chain.request({ method: 'evm_setAutomine' as never, params: [false] as never });
}
async function resumeMining() {
  await chain.request({ method: 'evm_setIntervalMining' as never, params: [1] as never });
}
const transfer = (extra: Record<string, unknown> = {}) =>
  transferToken(call, { token, sender: service.credentials.sender, recipient }, extra);

beforeAll(async () => {
  service = await startTestService({ CHAINGATE_STUCK_AFTER_SECONDS: '2' });
  call = apiClient(service.url, service.auth);
  chain = createPublicClient({ chain: foundry, transport: http(service.credentials.devnetRpcUrl as string) });
  token = await deployErc20(call, service.credentials.sender, ['Engine', 'ENG', 1000]);
});
afterAll(async () => service?.close());

describe('nonce gaps', () => {
  it('re-uses the nonce of a send the node refused', async () => {
    const before = await chain.getTransactionCount({ address: service.credentials.sender as `0x${string}` });
    const refused = await transfer({
      value: '1000000000000000000000000',
      useGasEstimation: false,
      gasLimit: 100000,
      myReference: 'broke',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('ERROR_INSUFICIENT_FUNDS');
    const record = (await call('GET', '/core/v1/evm/info/transaction/reference/broke')).body.info[0];
    expect(record).toMatchObject({ status: 'error', errorInfo: { code: 'ERROR_INSUFICIENT_FUNDS' } });
    const next = await transfer();
    expect(next.status).toBe(201);
    expect(next.body.nonce).toBe(before);
    expect((await waitForFinalStatus(call, next.body.txHash)).status).toBe('confirmed');
  });

  it('fills a gap nobody re-used with a zero-value self-transfer', async () => {
    await pauseMining();
    try {
      const first = await transfer();
      const refused = await transfer({
        value: '1000000000000000000000000',
        useGasEstimation: false,
        gasLimit: 100000,
      });
      expect(refused.status).toBe(400);
      await resumeMining();
      expect((await waitForFinalStatus(call, first.body.txHash)).status).toBe('confirmed');
      const gapNonce = first.body.nonce + 1;
      const deadline = Date.now() + 20_000;
      while (
        (await chain.getTransactionCount({ address: service.credentials.sender as `0x${string}` })) <=
        gapNonce
      ) {
        if (Date.now() > deadline) throw new Error('gap not filled');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const filler = await service.platform.db.query<{ kind: string; state: string }>(
        'SELECT kind, state FROM evm_transactions WHERE sender = $1 AND nonce = $2 AND state <> $3',
        [service.credentials.sender.toLowerCase(), gapNonce, 'error'],
      );
      expect(filler).toEqual([{ kind: 'filler', state: expect.stringMatching(/inserted|confirmed/) }]);
    } finally {
      await resumeMining();
    }
  });
});

describe('stuck and replaced transactions', () => {
  it('re-sends a transaction not mined in time with the same nonce and higher fees', async () => {
    await pauseMining();
    let sent: Awaited<ReturnType<typeof transfer>>;
    try {
      sent = await transfer();
      expect(sent.status).toBe(201);
      const deadline = Date.now() + 20_000;
      let attempts: Array<{ tx_hash: string; max_fee_per_gas: string }> = [];
      while (attempts.length < 2 && Date.now() < deadline) {
        attempts = await service.platform.db.query(
          'SELECT a.tx_hash, a.max_fee_per_gas FROM evm_transaction_attempts a JOIN evm_transaction_attempts b ON a.transaction_id = b.transaction_id WHERE b.tx_hash = $1 ORDER BY a.created_at',
          [sent.body.txHash],
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(attempts.length).toBeGreaterThanOrEqual(2);
      expect(BigInt(attempts[1]?.max_fee_per_gas as string)).toBeGreaterThan(
        (BigInt(attempts[0]?.max_fee_per_gas as string) * 110n) / 100n,
      );
    } finally {
      await resumeMining();
    }
    // Found by its first hash; mined under the bumped one; exactly one of them on chain.
    const status = await waitForFinalStatus(call, sent.body.txHash);
    expect(status.status).toBe('confirmed');
    expect(status.txHash).not.toBe(sent.body.txHash);
    expect(await chain.getTransactionReceipt({ hash: status.txHash }).then((r) => r.status)).toBe('success');
    expect(await chain.getTransactionReceipt({ hash: sent.body.txHash }).catch(() => null)).toBeNull();
  });

  it('replaces a pending transaction given its nonce and a higher gasPrice', async () => {
    await pauseMining();
    let original: Awaited<ReturnType<typeof transfer>>;
    let replacement: Awaited<ReturnType<typeof transfer>>;
    try {
      original = await transfer({ myReference: 'orig' });
      expect(original.status).toBe(201);
      replacement = await transfer({
        nonce: original.body.nonce,
        gasPrice: 50,
        priorityFee: 10,
        params: [recipient, 2],
      });
      expect(replacement.status).toBe(201);
      expect(replacement.body.nonce).toBe(original.body.nonce);
      const taken = await transfer({ nonce: original.body.nonce + 5 });
      expect(taken.status).toBe(400);
      expect(taken.body.message).toMatch(/neither a pending transaction/);
    } finally {
      await resumeMining();
    }
    expect((await waitForFinalStatus(call, replacement.body.txHash)).status).toBe('confirmed');
    const old = (await call('GET', '/core/v1/evm/info/transaction/reference/orig')).body.info[0];
    expect(old).toMatchObject({ status: 'error', errorInfo: { code: 'ERROR_REPLACED' } });
  });
});
