import solc from 'solc';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../support/anvil.ts';
import { apiClient, waitForFinalStatus } from '../support/api-client.ts';
import { type CountingRelay, startCountingRelay } from '../support/counting-relay.ts';
import { externalNetworkEnv, networkConfigFile } from '../support/external-network.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * A contract whose real gas need is well above the gas its execution reports: each call nests
 * external calls that forward all gas (the 63/64 rule) and sets then clears slots (refunds that
 * lower the gas used). Sends estimated against the latest block (not the node's pending block, which
 * replays its whole pool) must never run out of gas.
 */
const source = `
pragma solidity ^0.8.20;
contract GasSink {
  uint256[40] private scratch;
  uint256 public calls;
  function work(uint256 depth, uint256 writes) external {
    for (uint256 i = 0; i < writes; i++) scratch[i] = i + 1;
    if (depth > 0) this.work(depth - 1, writes);
    for (uint256 i = 0; i < writes; i++) scratch[i] = 0;
    calls++;
  }
}`;

function compile() {
  const input = {
    language: 'Solidity',
    sources: { 'GasSink.sol': { content: source } },
    settings: { evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const contract = output.contracts['GasSink.sol'].GasSink;
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}

let anvil: AnvilInstance;
let relay: CountingRelay;
let service: TestService;
const estimateTags: unknown[] = [];

beforeAll(async () => {
  anvil = await startAnvil({ blockTime: 0.5 });
  relay = await startCountingRelay(anvil.rpcUrl, (item) => {
    if (item.method === 'eth_estimateGas') estimateTags.push(item.params?.[1]);
  });
  service = await startTestService(externalNetworkEnv(networkConfigFile(relay.url)));
});
afterAll(async () => {
  await service?.close();
  relay?.close();
  await anvil?.stop();
});

it('never runs a send out of gas, estimating against the latest block', {
  timeout: 120_000,
}, async () => {
  const call = apiClient(service.url, service.auth);
  const sender = service.credentials.sender;
  const { abi, bytecode } = compile();
  const spec = await call('POST', '/core/v1/evm/info/specs', { name: 'GasSink', abi, bytecode });
  const deployed = await call('POST', '/core/v1/evm/contract/deploy', {
    contractSpecsId: spec.body.id,
    sender,
    blockchainNetwork: 31337,
    params: [],
  });
  await waitForFinalStatus(call, deployed.body.txHash);
  const contract = deployed.body.contractAddress;

  const sends: string[] = [];
  // Light calls, then deeper ones with more refunds: the estimate is up to ~25 % above the gas used.
  const shapes = [
    ...Array.from({ length: 10 }, (_, i) => [0, i % 3]),
    ...Array.from({ length: 40 }, (_, i) => [1 + (i % 12), i % 11]),
  ];
  for (const [depth, writes] of shapes) {
    const sent = await call('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: contract,
      sender,
      blockchainNetwork: 31337,
      method: 'work',
      params: [depth, writes],
    });
    expect(sent.status, sent.text).toBe(201);
    sends.push(sent.body.txHash);
  }
  for (const hash of sends) expect((await waitForFinalStatus(call, hash)).status).toBe('confirmed');
  expect(estimateTags.length).toBeGreaterThan(shapes.length / 2);
  expect(estimateTags.every((tag) => tag === 'latest')).toBe(true);

  const view = await call('POST', '/core/v1/evm/transact/view', {
    contractAddress: contract,
    blockchainNetwork: 31337,
    method: 'calls',
    params: [],
  });
  // Every call ran to its end: one `calls` per frame, nested ones included.
  expect(view.body).toEqual([shapes.reduce((sum, [depth]) => sum + (depth as number) + 1, 0)]);
});
