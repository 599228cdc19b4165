import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, rpcCall } from '../support/anvil.ts';
import { apiClient, deployErc20, waitForFinalStatus } from '../support/api-client.ts';
import { answerAsNethermind } from '../support/nethermind-relay.ts';
import { type RelayedService, startRelayedService } from '../support/relayed-service.ts';
import type { TestService } from '../support/service.ts';

// A word of 32 bytes, for PUSH32: the hex given, then zeros.
const word = (hex: string) => hex.padEnd(64, '0');
/** Runtime code that reverts with Error("nope"): the selector, the offset, the length, the text. */
const revertsWithNope = `0x7f${word('08c379a0')}600052602060045260046024527f${word('6e6f7065')}60445260646000fd`;

/**
 * The same answers whatever words the node uses for an EVM failure: anvil's (geth's code 3 and
 * wording), or Nethermind's before it moved to code 3 (-32015, "VM execution error.", what happened as
 * text in `data`), spoken by a relay in front of anvil (anvil's own words pass it unchanged). Before, the service took Nethermind's for the
 * node's own failure: a view answered 503, a send's estimate "An unknown RPC error occurred.", and a
 * failover asked every other URL.
 */
describe.each(['anvil', 'nethermind'] as const)('EVM failures in the words of %s', (words) => {
  let stack: RelayedService;
  let anvil: AnvilInstance;
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  let token: string;
  let erc20Spec: number;
  const recipient = '0x000000000000000000000000000000000000beef';

  const anvilRpc = (method: string, params: unknown[] = []) => rpcCall(anvil.rpcUrl, method, params);
  const viewBalanceOf = (contractAddress: string, account = recipient) =>
    call('POST', '/core/v1/evm/transact/view', {
      contractAddress,
      contractSpecsId: erc20Spec,
      blockchainNetwork: 31337,
      method: 'balanceOf',
      params: [account],
    });
  const transfer = (contractAddress: string, amount: unknown, spec?: number) =>
    call('POST', '/core/v1/evm/transact/mutable', {
      contractAddress,
      ...(spec === undefined ? {} : { contractSpecsId: spec }),
      sender: service.credentials.sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [recipient, amount],
    });

  beforeAll(async () => {
    // Automine, so a test can hold blocks back (evm_setAutomine) and mine two sends together.
    stack = await startRelayedService(
      words === 'nethermind' ? answerAsNethermind : (item, forward) => forward(item),
      {},
    );
    ({ anvil, service } = stack);
    call = apiClient(service.url, service.auth);
    token = await deployErc20(call, service.credentials.sender, ['Worded', 'WRD', 1000]);
    const specs = await call('GET', '/core/v1/evm/info/specs');
    erc20Spec = specs.body.find((spec: { name: string }) => spec.name === 'ERC20').id;
  });
  afterAll(() => stack?.close());

  it('answers a view that reverts with a custom error 400, decoded', async () => {
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
      ['0x00000000000000000000000000000000000e7001', revertsWithNope, /^execution reverted: nope$/],
      ['0x00000000000000000000000000000000000e7002', '0x60006000fd', /^execution reverted$/],
      [
        '0x00000000000000000000000000000000000e7003',
        '0x5b600056',
        /^execution failed: (EVM error )?OutOfGas$/,
      ],
    ] as const;
    for (const [address, code, message] of cases) {
      await anvilRpc('anvil_setCode', [address, code]);
      const view = await viewBalanceOf(address);
      expect(view.status, view.text).toBe(400);
      expect(view.body.code).toBe('ERROR_EXECUTION_REVERTED');
      expect(view.body.message).toMatch(message);
    }
  });

  it('answers a send whose estimation reverts 400, with the decoded reason or a bare revert', async () => {
    const tooMuch = await transfer(token, '999999999999999999999999999');
    expect(tooMuch.status, tooMuch.text).toBe(400);
    expect(tooMuch.body.code).toBe('ERROR_EXECUTION_REVERTED');
    expect(tooMuch.body.message).toContain('ERC20InsufficientBalance');

    const bare = '0x00000000000000000000000000000000000e7004';
    await anvilRpc('anvil_setCode', [bare, '0x60006000fd']);
    const refused = await transfer(bare, 1, erc20Spec);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toMatchObject({ code: 'ERROR_EXECUTION_REVERTED', message: 'execution reverted' });
  });

  it('records a transfer that reverts on chain as evmError, its reason replayed at its block', async () => {
    // All its digits, as a decimal string (the answer's number is past 2^53).
    const balance = /^\[(\d+)\]$/.exec((await viewBalanceOf(token, service.credentials.sender)).text)?.[1];
    // Held back, both transfers of the whole balance pass their estimate on the latest block; mined
    // together, the second one reverts.
    await anvilRpc('evm_setAutomine', [false]);
    const first = await transfer(token, balance);
    const second = await transfer(token, balance);
    await anvilRpc('evm_setAutomine', [true]);
    await anvilRpc('evm_mine');
    expect([first.status, second.status], `${first.text} ${second.text}`).toEqual([201, 201]);
    expect((await waitForFinalStatus(call, first.body.txHash)).status).toBe('confirmed');
    const failed = await waitForFinalStatus(call, second.body.txHash);
    expect(failed.status).toBe('evmError');
    expect(failed.errorInfo.code).toBe('ERROR_EVM_REVERTED');
    expect(failed.errorInfo.message).toMatch(
      /^execution reverted: ERC20InsufficientBalance\(0x[0-9a-f]{40}, 0, /i,
    );
  });
});
