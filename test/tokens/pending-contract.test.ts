import { getAddress } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../support/anvil.ts';
import { apiClient, waitForFinalStatus } from '../support/api-client.ts';
import { externalNetworkEnv, networkConfigFile } from '../support/external-network.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { type Call, refused } from './token-test-client.ts';

let anvil: AnvilInstance;
let service: TestService;
let call: Call;
const recipient = getAddress('0x00000000000000000000000000000000000a11ce');

async function rpc(method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(anvil.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await response.json()) as { result: unknown }).result;
}

beforeAll(async () => {
  anvil = await startAnvil();
  service = await startTestService(externalNetworkEnv(networkConfigFile(anvil.rpcUrl)));
  call = apiClient(service.url, service.auth);
});
afterAll(async () => {
  await service?.close();
  await anvil?.stop();
});

it('takes calls to a token still being deployed, answers its reads 400 until it is mined', async () => {
  // Nothing is mined until the test says so.
  await rpc('evm_setAutomine', [false]);
  const deploy = await call('POST', '/erc/v1/erc20/deploy', {
    name: 'Pending',
    symbol: 'PND',
    alias: 'pending',
    initialSupply: 10,
    network: 31337,
  });
  expect(deploy.status).toBe(201);
  const token = deploy.body.contractAddress;
  const at = (extra: Record<string, unknown> = {}) => ({ contractAddress: token, network: 31337, ...extra });

  await refused(
    call,
    'POST',
    '/erc/v1/erc20/name',
    at(),
    400,
    'CG_ERR_CONTRACT_PENDING',
    /still being deployed/,
  );
  const sent = await call('POST', '/erc/v1/erc20/transfer', at({ recipient, amount: 12 }));
  expect(sent.status).toBe(201);
  await refused(
    call,
    'POST',
    '/erc/v1/erc721/mint',
    {
      ...at(),
      recipientAddress: recipient,
      tokenId: 1,
      ipfsUri: 'ipfs://x',
      ipfsHash: 'Qm',
    },
    400,
    'CG_ERR_WRONG_TOKEN_STANDARD',
    /not an ERC-721 contract: it is an ERC-20 contract/,
  );
  expect((await call('GET', '/erc/v1/erc20/holders', at())).body).toMatchObject({
    scannedBlock: null,
    holders: [],
  });
  expect((await call('GET', '/erc/v1/erc20/contracts')).body.contracts).toEqual([
    expect.objectContaining({ alias: 'pending', contractAddress: token, deployStatus: 'inserted' }),
  ]);

  await rpc('anvil_mine', ['0x1']);
  await rpc('evm_setAutomine', [true]);
  expect((await waitForFinalStatus(call, deploy.body.txHash)).status).toBe('confirmed');
  expect((await waitForFinalStatus(call, sent.body.txHash)).status).toBe('confirmed');
  expect((await call('GET', '/erc/v1/erc20/name', at())).body).toEqual({ name: 'Pending' });
  expect((await call('GET', '/erc/v1/erc20/balanceOf', at({ address: recipient }))).body.balance).toBe(12);
  const holders = await call('GET', '/erc/v1/erc20/holders', at());
  expect(holders.body.holders).toContainEqual({ address: recipient, balance: 12, balanceString: '12' });
});
