import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../support/anvil.ts';
import { apiClient, deployErc20, waitForFinalStatus } from '../support/api-client.ts';
import { externalNetworkEnv, networkConfigFile } from '../support/external-network.ts';
import { type SequencerRelay, startSequencerRelay } from '../support/sequencer-relay.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { sendTransferBurst } from '../support/token-burst.ts';

// geth's wording, as sequencers built on it answer, and Nethermind's, whose pool also refuses gaps.
describe.each(['geth', 'nethermind'] as const)(
  'a node that refuses gapped nonces, in %s words',
  (wording) => {
    let anvil: AnvilInstance;
    let relay: SequencerRelay;
    let service: TestService;

    beforeAll(async () => {
      // Automine: a re-sent transaction is mined before its own send retries, the hardest case for "too low".
      anvil = await startAnvil();
      relay = await startSequencerRelay(anvil.rpcUrl, wording);
      service = await startTestService(
        externalNetworkEnv(networkConfigFile(relay.url, { name: 'sequencer' })),
      );
    });
    afterAll(async () => {
      await service?.close();
      await relay?.close();
      await anvil?.stop();
    });

    it('re-sends the earlier nonces when the node says "nonce too high"', {
      timeout: 120_000,
    }, async () => {
      const call = apiClient(service.url, service.auth);
      const sender = service.credentials.sender as `0x${string}`;
      const token = await deployErc20(call, sender, ['Sequenced', 'SEQ', 1000]);
      const recipient = '0x000000000000000000000000000000000000bEEF';

      // The sequencer loses one transaction it answered with a hash: every later nonce is "too high".
      relay.dropNext(1);
      const lost = await call('POST', '/core/v1/evm/transact/mutable', {
        contractAddress: token,
        sender,
        blockchainNetwork: 31337,
        method: 'transfer',
        params: [recipient, 1],
      });
      expect(lost.status).toBe(201);
      expect(relay.stats.dropped).toBe(1);

      // Concurrent sends also reach a sequencer out of nonce order now and then.
      const burst = await sendTransferBurst({
        clients: [call],
        token,
        sender,
        recipient,
        count: 40,
        concurrency: 16,
      });
      expect(burst.failed).toBe(0);
      expect(relay.stats.nonceTooHigh).toBeGreaterThan(0);

      const all = [lost.body, ...burst.accepted];
      const nonces = all.map((a) => Number(a.nonce)).sort((a, b) => a - b);
      const first = nonces[0] as number;
      expect(nonces).toEqual(nonces.map((_, i) => first + i));
      for (const accepted of all) {
        expect((await waitForFinalStatus(call, accepted.txHash)).status).toBe('confirmed');
      }
      const chain = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
      const balance = await chain.readContract({
        address: token,
        abi: [
          {
            type: 'function',
            name: 'balanceOf',
            stateMutability: 'view',
            inputs: [{ name: 'a', type: 'address' }],
            outputs: [{ type: 'uint256' }],
          },
        ],
        functionName: 'balanceOf',
        args: [recipient],
      });
      expect(balance).toBe(41n);
      const maxNonce = Math.max(...all.map((a) => Number(a.nonce)));
      expect(await chain.getTransactionCount({ address: sender })).toBe(maxNonce + 1);
    });
  },
);
