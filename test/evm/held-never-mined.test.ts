import { type Hex, keccak256 } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcCall } from '../support/anvil.ts';
import { apiClient, waitForFinalStatus } from '../support/api-client.ts';
import { type RelayedService, startRelayedService } from '../support/relayed-service.ts';

// A node that took a transaction, keeps it, answers "already known" when given it again, and never mines
// it (anvil's pool has held transactions so). Its pending count stays below the service's next nonce, so
// the engine's look at the chain's nonces gives it the bytes again every few seconds. Those answers must
// not restart the time after which the engine re-prices an unmined transaction: the re-priced bytes are
// new to the node, and are mined.
const recipient = '0x000000000000000000000000000000000000beef';
/** Raw transactions the relay says it took and then holds without giving them to anvil. */
const held = new Set<string>();
let holdNext = false;

let stack: RelayedService;
beforeAll(async () => {
  stack = await startRelayedService(
    async (item, forward) => {
      if (item.method !== 'eth_sendRawTransaction') return forward(item);
      const raw = (item.params as string[])[0] as Hex;
      if (held.has(raw))
        return { jsonrpc: '2.0', id: item.id, error: { code: -32000, message: 'already known' } };
      if (!holdNext) return forward(item);
      holdNext = false;
      held.add(raw);
      return { jsonrpc: '2.0', id: item.id, result: keccak256(raw) };
    },
    // Longer than the 5 s between the engine's looks at the chain's nonces, which re-send the held bytes.
    { env: { CHAINGATE_STUCK_AFTER_SECONDS: '8' } },
  );
});
afterAll(() => stack?.close());

describe('a transaction the node holds and never mines', () => {
  it('is re-priced under its nonce once unmined for the stuck delay, and mined', {
    timeout: 60_000,
  }, async () => {
    const { service, anvil } = stack;
    const call = apiClient(service.url, service.auth);
    holdNext = true;
    const sent = await call('POST', '/core/v1/evm/chain/transfer', {
      sender: service.credentials.sender,
      recipient,
      blockchainNetwork: 31337,
      value: '7001',
      myReference: 'heldNeverMined',
    });
    expect(sent.status, sent.text).toBe(201);
    expect(held.size).toBe(1);
    const status = await waitForFinalStatus(call, sent.body.txHash, 31337, 45_000);
    expect(status.status, JSON.stringify(status)).toBe('confirmed');
    const record = (await call('GET', '/core/v1/evm/info/transaction/reference/heldNeverMined')).body.info[0];
    expect(record).toMatchObject({ nonce: sent.body.nonce, status: 'confirmed' });
    expect(record.txHash).not.toBe(sent.body.txHash);
    expect(await rpcCall(anvil.rpcUrl, 'eth_getBalance', [recipient, 'latest'])).toBe('0x1b59');
  });
});
