import { parseEther } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../../../test/support/anvil.ts';
import { fundFromFaucet } from './devnet-faucet.ts';
import { devnetNetwork } from './evm-networks.ts';

let anvil: AnvilInstance;

beforeAll(async () => {
  anvil = await startAnvil();
});

afterAll(async () => {
  await anvil?.stop();
});

it('tops an account up and announces the state change, once: a funded account is left alone', async () => {
  let announced = 0;
  const network = devnetNetwork(anvil.rpcUrl, () => {
    announced++;
  });
  const address = privateKeyToAddress(`0x${'42'.repeat(32)}`);
  expect(await network.client.getBalance({ address })).toBe(0n);

  expect(await fundFromFaucet(network, address)).toBe(true);
  expect(await network.client.getBalance({ address })).toBe(parseEther('1000'));
  expect(announced).toBe(1);

  expect(await fundFromFaucet(network, address)).toBe(true);
  expect(announced).toBe(1);
});

it('does nothing on a network without a faucet', async () => {
  const network = { ...devnetNetwork(anvil.rpcUrl), hasDevnetFaucet: false };
  const address = privateKeyToAddress(`0x${'43'.repeat(32)}`);
  expect(await fundFromFaucet(network, address)).toBe(false);
  expect(await network.client.getBalance({ address })).toBe(0n);
});
