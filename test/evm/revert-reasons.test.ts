import { afterAll, beforeAll, expect, it } from 'vitest';
import { rpcCall } from '../support/anvil.ts';
import { apiClient, deployErc20, waitForFinalStatus } from '../support/api-client.ts';
import { HttpRefusal, type RpcItem } from '../support/json-rpc-server.ts';
import { type RelayedService, startRelayedService } from '../support/relayed-service.ts';

// Revert reasons when the node fails, or words them its own way. A relay in front of anvil plays it.
let stack: RelayedService;
let replay: 'forward' | 'bad gateway' | 'pruned' = 'forward';
let replays = 0;

/** The engine's replay: an eth_call at a block number; views and estimates ask for "latest". */
const isReplay = (item: RpcItem) =>
  item.method === 'eth_call' && typeof item.params?.[1] === 'string' && /^0x[0-9a-f]+$/.test(item.params[1]);

/** Where the relay answers every estimate with a revert in words only, as a node that drops its data. */
const WORDED = '0x00000000000000000000000000000000000ba1a4';

beforeAll(async () => {
  stack = await startRelayedService(async (item, forward) => {
    const target = (item.params?.[0] as { to?: string } | undefined)?.to;
    if (item.method === 'eth_estimateGas' && target?.toLowerCase() === WORDED.toLowerCase())
      return {
        jsonrpc: '2.0',
        id: item.id,
        error: { code: -32000, message: 'execution reverted: Insufficient balance' },
      };
    if (!isReplay(item) || replay === 'forward') return forward(item);
    replays++;
    if (replay === 'bad gateway') throw new HttpRefusal(502, 'bad gateway');
    return { jsonrpc: '2.0', id: item.id, error: { code: -32000, message: 'missing trie node abc (path )' } };
  });
});
afterAll(() => stack?.close());

// A mined transaction's receipt says that it reverted, not why: the call is replayed at its block for
// the reason. When the node failed that replay, the record said a bare "execution reverted", as if the
// contract had given no reason. It says now that the reason is unknown, and why.
it('records a revert whose replay the node failed as reverted, its reason unknown and why', {
  timeout: 60_000,
}, async () => {
  const { service } = stack;
  const call = apiClient(service.url, service.auth);
  const token = await deployErc20(call, service.credentials.sender, ['Replay', 'RPL', 1000]);
  const overdraw = () =>
    call('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: token,
      sender: service.credentials.sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: ['0x000000000000000000000000000000000000beef', '999999999999999999999999999'],
      useGasEstimation: false,
      gasLimit: 100000,
    });
  const cases = [
    [
      'bad gateway',
      /^execution reverted \(its reason is unknown: the node answered HTTP 502: its server failed when the call was replayed\)$/,
    ],
    [
      'pruned',
      /^execution reverted \(its reason is unknown: the node answered "missing trie node abc \(path \)" when the call was replayed\)$/,
    ],
    ['forward', /^execution reverted: ERC20InsufficientBalance/],
  ] as const;
  for (const [mode, message] of cases) {
    replay = mode;
    const sent = await overdraw();
    expect(sent.status, sent.text).toBe(201);
    const final = await waitForFinalStatus(call, sent.body.txHash);
    expect(final.status).toBe('evmError');
    expect(final.errorInfo.code).toBe('ERROR_EVM_REVERTED');
    expect(final.error).toMatch(message);
  }
  expect(replays).toBe(2);
});

// An estimate's error was read for the sender's funds before the EVM's failure: a revert whose reason
// comes only in words, and says "insufficient balance" (the token's), answered ERROR_INSUFICIENT_FUNDS.
it('answers a revert worded "insufficient balance" as a revert, not as the sender lacking funds', async () => {
  const { service } = stack;
  const call = apiClient(service.url, service.auth);
  // Any code: the estimate never reaches it.
  await rpcCall(stack.anvil.rpcUrl, 'anvil_setCode', [WORDED, '0x00']);
  const specs = await call('GET', '/core/v1/evm/info/specs');
  const sent = await call('POST', '/core/v1/evm/transact/mutable', {
    contractAddress: WORDED,
    contractSpecsId: specs.body.find((spec: { name: string }) => spec.name === 'ERC20').id,
    sender: service.credentials.sender,
    blockchainNetwork: 31337,
    method: 'transfer',
    params: ['0x000000000000000000000000000000000000beef', 1],
  });
  expect(sent.status, sent.text).toBe(400);
  expect(sent.body).toMatchObject({
    code: 'ERROR_EXECUTION_REVERTED',
    message: 'execution reverted: Insufficient balance',
  });
});
