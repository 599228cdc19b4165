import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../support/anvil.ts';
import { apiClient, deployErc20 } from '../support/api-client.ts';
import { externalNetworkEnv, networkConfigFile } from '../support/external-network.ts';
import type { JsonRpcServer } from '../support/json-rpc-server.ts';
import { startNethermindRelay } from '../support/nethermind-relay.ts';
import { startTestService, type TestService } from '../support/service.ts';

// A word of 32 bytes, for PUSH32: the hex given, then zeros.
const word = (hex: string) => hex.padEnd(64, '0');
/** Runtime code that reverts with Error("nope"): the selector, the offset, the length, the text. */
const revertsWithNope = `0x7f${word('08c379a0')}600052602060045260046024527f${word('6e6f7065')}60445260646000fd`;

/**
 * Nethermind answered an EVM failure with code -32015, "VM execution error.", and what happened as text
 * in `data`. Before, the service took that for the node's own failure: a view answered 503, and a
 * failover asked every other URL. A view or a send the contract refuses is the request's fault: 400.
 */
describe('a node that answers EVM failures as Nethermind did (code -32015, the reason in data)', () => {
  let anvil: AnvilInstance;
  let relay: JsonRpcServer;
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  let token: string;
  let erc20Spec: number;
  const recipient = '0x000000000000000000000000000000000000beef';

  const setCode = (address: string, code: string) =>
    fetch(anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setCode', params: [address, code] }),
    });
  const viewBalanceOf = (contractAddress: string) =>
    call('POST', '/core/v1/evm/transact/view', {
      contractAddress,
      contractSpecsId: erc20Spec,
      blockchainNetwork: 31337,
      method: 'balanceOf',
      params: [recipient],
    });

  beforeAll(async () => {
    anvil = await startAnvil({ blockTime: 0.2 });
    relay = await startNethermindRelay(anvil.rpcUrl);
    service = await startTestService(externalNetworkEnv(networkConfigFile(relay.url)));
    call = apiClient(service.url, service.auth);
    token = await deployErc20(call, service.credentials.sender, ['Nether', 'NTH', 1000]);
    const specs = await call('GET', '/core/v1/evm/info/specs');
    erc20Spec = specs.body.find((spec: { name: string }) => spec.name === 'ERC20').id;
  });
  afterAll(async () => {
    await service?.close();
    await relay?.close();
    await anvil?.stop();
  });

  it('answers a view that reverts with a custom error 400, decoded from "Reverted 0x…"', async () => {
    const view = await call('POST', '/core/v1/evm/transact/view', {
      contractAddress: token,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [recipient, '999999999999999999999999999'],
      sender: recipient,
    });
    expect(view.status, view.text).toBe(400);
    expect(view.body.code).toBe('ERROR_EXECUTION_REVERTED');
    expect(view.body.message).toMatch(/^execution reverted: ERC20InsufficientBalance\(0x0+beef, 0, /i);
  });

  it('answers views that revert with a reason, revert bare or run out of gas 400, with what the node said', async () => {
    const cases = [
      ['0x00000000000000000000000000000000000e7001', revertsWithNope, 'execution reverted: nope'],
      ['0x00000000000000000000000000000000000e7002', '0x60006000fd', 'execution reverted'],
      ['0x00000000000000000000000000000000000e7003', '0x5b600056', 'execution failed: OutOfGas'],
    ] as const;
    for (const [address, code, message] of cases) {
      await setCode(address, code);
      const view = await viewBalanceOf(address);
      expect(view.status, view.text).toBe(400);
      expect(view.body).toMatchObject({ code: 'ERROR_EXECUTION_REVERTED', message });
    }
  });

  it('answers a send whose estimation reverts 400, with the decoded reason or a bare revert', async () => {
    const sender = service.credentials.sender;
    const tooMuch = await call('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: token,
      sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [recipient, '999999999999999999999999999'],
    });
    expect(tooMuch.status, tooMuch.text).toBe(400);
    expect(tooMuch.body.code).toBe('ERROR_EXECUTION_REVERTED');
    expect(tooMuch.body.message).toContain('ERC20InsufficientBalance');

    const bare = '0x00000000000000000000000000000000000e7004';
    await setCode(bare, '0x60006000fd');
    const refused = await call('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: bare,
      contractSpecsId: erc20Spec,
      sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [recipient, 1],
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toMatchObject({ code: 'ERROR_EXECUTION_REVERTED', message: 'execution reverted' });
  });
});
