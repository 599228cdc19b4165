import { setTimeout as sleep } from 'node:timers/promises';
import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../support/anvil.ts';
import { apiClient, deployErc20, waitForFinalStatus } from '../support/api-client.ts';
import { externalNetworkEnv, networkConfigFile } from '../support/external-network.ts';
import { startTestService, type TestService } from '../support/service.ts';

let anvil: AnvilInstance;
let service: TestService;
const gwei = 1_000_000_000n;

beforeAll(async () => {
  anvil = await startAnvil({ blockTime: 1 });
  service = await startTestService({
    ...externalNetworkEnv(networkConfigFile(anvil.rpcUrl, { name: 'capped anvil', maxFeePerGasGwei: 2.5 })),
    CHAINGATE_STUCK_AFTER_SECONDS: '1',
  });
});
afterAll(async () => {
  await service?.close();
  await anvil?.stop();
});

async function attemptFees(txHash: string): Promise<bigint[]> {
  const rows = await service.platform.db.query<{ max_fee_per_gas: string }>(
    `SELECT a.max_fee_per_gas FROM evm_transaction_attempts a
       JOIN evm_transaction_attempts b ON a.transaction_id = b.transaction_id
      WHERE b.tx_hash = $1 ORDER BY a.created_at`,
    [txHash],
  );
  return rows.map((row) => BigInt(row.max_fee_per_gas));
}

it('raises the fees of a stuck transaction up to the network ceiling and no further', {
  timeout: 90_000,
}, async () => {
  const call = apiClient(service.url, service.auth);
  const chain = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
  const token = await deployErc20(call, service.credentials.sender, ['Capped', 'CAP', 1000]);
  const transfer = (gasPrice: number) =>
    call('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: token,
      sender: service.credentials.sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: ['0x000000000000000000000000000000000000cafe', 1],
      gasPrice,
      priorityFee: 1,
    });

  const above = await transfer(3);
  expect(above.status).toBe(400);
  expect(above.body.code).toBe('ERROR_FEE_ABOVE_CEILING');

  await chain.request({ method: 'evm_setIntervalMining' as never, params: [0] as never });
  let sent: Awaited<ReturnType<typeof transfer>>;
  try {
    sent = await transfer(2);
    expect(sent.status).toBe(201);
    // 2 gwei, then +12.5 % (2.25), then capped at 2.5: three attempts, then the engine stops raising.
    const deadline = Date.now() + 30_000;
    while ((await attemptFees(sent.body.txHash)).length < 3 && Date.now() < deadline) await sleep(200);
    await sleep(4_000);
    expect(await attemptFees(sent.body.txHash)).toEqual([2n * gwei, 2_250_000_001n, (25n * gwei) / 10n]);
  } finally {
    await chain.request({ method: 'evm_setIntervalMining' as never, params: [1] as never });
  }
  const status = await waitForFinalStatus(call, sent.body.txHash);
  expect(status.status).toBe('confirmed');
  const mined = await chain.getTransaction({ hash: status.txHash });
  expect(mined.maxFeePerGas).toBe((25n * gwei) / 10n);
});
